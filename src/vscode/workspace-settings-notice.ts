/**
 * Tells the user when a workspace's settings try to set what only the user may (config.ts USER_ONLY_SETTINGS:
 * the permission policy, agents' commands, …): the value is ignored, and the notice says which and where to set
 * it instead. Shown at activation and when the settings change, once per distinct set of names.
 *
 * VS Code leaves an application- or machine-scoped value out of `inspect()` when a workspace file sets it, so the
 * workspace's settings files (each folder's `.vscode/settings.json`, the `.code-workspace` file) are read too,
 * asynchronously, for the setting names; `inspect()` catches a value it still reports.
 */
import * as vscode from "vscode";
import { SECTION, USER_ONLY_SETTINGS, type Config } from "./config";
import type { Notifier } from "./notifier";

export const OPEN_USER_SETTINGS = "Open User Settings";

/** JSONC text without its comments (strings kept whole, so a `//` inside a URL stays). */
const withoutComments = (text: string) =>
  text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//gu, (_m, str: string | undefined) => str ?? "");

async function namedInFiles(): Promise<string[]> {
  const files = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    vscode.Uri.joinPath(f.uri, ".vscode", "settings.json"),
  );
  if (vscode.workspace.workspaceFile?.scheme === "file") files.push(vscode.workspace.workspaceFile);
  const texts = await Promise.all(
    files.map((u) =>
      vscode.workspace.fs.readFile(u).then(
        (b) => withoutComments(Buffer.from(b).toString("utf8")),
        () => "",
      ),
    ),
  );
  return USER_ONLY_SETTINGS.map((k) => `${SECTION}.${k}`).filter((name) =>
    texts.some((t) => t.includes(`"${name}"`) && new RegExp(`"${name.replace(/\./gu, "\\.")}"\\s*:`, "u").test(t)),
  );
}

export function noticeIgnoredWorkspaceSettings(
  config: Config,
  notifier: Notifier,
  warn: (message: string) => void,
): vscode.Disposable {
  let shown = "";
  const check = async () => {
    const names = [...new Set([...config.ignoredWorkspaceSettings, ...(await namedInFiles())])].sort();
    const key = names.join(",");
    if (key === shown) return;
    shown = key;
    if (!names.length) return;
    const message = `This workspace's settings try to set ${names.join(", ")}; ACP Threads ignores them there (a repository must not decide what agents may do). Set ${names.length === 1 ? "it" : "them"} in your user settings.`;
    warn(message);
    const pick = await notifier.show("warning", message, OPEN_USER_SETTINGS);
    if (pick === OPEN_USER_SETTINGS) await vscode.commands.executeCommand("workbench.action.openSettings", names[0]);
  };
  const run = () => void check().then(undefined, (err) => warn(`checking the workspace's settings failed: ${err}`));
  run();
  return config.onDidChange(run);
}
