/**
 * The notification for a permission request whose panel is hidden (#37 item 9): it names what is asked about — the
 * command, or the file(s) — and whether that lies outside the workspace, and offers at most Allow / Deny / Open
 * (VS Code cuts longer button rows to "Ye…", "O…"); every other option of the agent's is in the panel.
 */
import * as vscode from "vscode";
import type { PermissionPrompt } from "../core/ports";
import type { PermissionView } from "../webview/thread/protocol";

export const TOAST_ALLOW = "Allow";
export const TOAST_DENY = "Deny";
export const TOAST_OPEN = "Open";

type Option = PermissionView["options"][number];

/** The agent's one-time allow and reject options (else the first of each kind) behind Allow and Deny. */
export function allowDeny(options: readonly Option[]): { allow?: Option; deny?: Option } {
  const pick = (prefix: string) =>
    options.find((o) => o.kind === `${prefix}_once`) ?? options.find((o) => o.kind.startsWith(prefix));
  return { allow: pick("allow"), deny: pick("reject") };
}

const shown = (path: string) => vscode.workspace.asRelativePath(path, false);

/** What the request is about, in a few words: the command line, or the files it names. */
function subject(prompt: PermissionPrompt): string | undefined {
  const tc = prompt.request.toolCall;
  const raw = tc.rawInput as { command?: unknown } | undefined;
  const command = Array.isArray(raw?.command)
    ? raw.command.filter((a): a is string => typeof a === "string").join(" ")
    : typeof raw?.command === "string"
      ? raw.command
      : undefined;
  if (tc.kind === "execute" && command) return command;
  const paths = [...new Set([prompt.proposed?.path, ...(tc.locations ?? []).map((l) => l.path)])].filter(
    (p): p is string => !!p,
  );
  if (!paths.length) return command;
  const names = paths.slice(0, 3).map(shown).join(", ");
  return paths.length > 3 ? `${names} and ${paths.length - 3} more` : names;
}

/** "Claude asks: Editing files — src/a.ts (outside the workspace: /etc/hosts)". */
export function toastMessage(label: string, view: PermissionView, prompt: PermissionPrompt): string {
  const about = subject(prompt);
  const named = about && !view.title.includes(about) ? ` — ${about}` : "";
  const outside = view.outside?.length ? ` (outside the workspace: ${view.outside.join(", ")})` : "";
  return `${label} asks: ${view.title}${named}${outside}`;
}
