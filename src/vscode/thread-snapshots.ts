/**
 * Export/Import snapshot in the editor, through the engine's snapshot requests (core/engine/requests.ts): the same
 * `saved_session_*.json` files the CLI writes (`threads export`) and lists (`threads import`), written
 * atomically (0600) with secrets redacted. The save dialog (and the import's Browse) starts in the user's
 * Downloads (or home) folder, never the repository (#37); the import list shows the CLI's
 * `<session folder>/.acp-threads/`. A `.jsonl` file (`threads export --jsonl`) is added as a thread through the
 * store (validated, torn tail cut, atomic).
 */
import { basename, dirname, join } from "node:path";
import * as vscode from "vscode";
import type { Engine, EngineProgress } from "../core/engine/requests";
import { SNAPSHOT_DIR, type SnapshotListing } from "../core/model/snapshot";
import { pathExists } from "../core/util/path-exists";
import type { ThreadStore } from "../core/store/thread-store";
import { defaultExportDir } from "./export-folder";

const FILTERS = { "ACP Threads session snapshot": ["json"], "ACP Threads thread file": ["jsonl"] };

/**
 * Runs `work` with a notification progress bar once the engine reports progress (it does for more than 500
 * messages); its warnings are collected in `warnings`.
 */
async function withProgress<T>(
  title: string,
  work: (onProgress: (p: EngineProgress) => void) => Promise<T>,
  warnings: string[] = [],
): Promise<T> {
  let bar: { report(v: { message: string; increment: number }): void } | undefined;
  let last = 0;
  let shown: Thenable<unknown> | undefined;
  const done = work((p) => {
    if (p.t !== "progress") return void ("message" in p && warnings.push(p.message));
    if (!shown)
      shown = vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, (b) => {
        bar = b;
        return done.catch(() => undefined);
      });
    bar?.report({ message: `${p.done}/${p.total} messages`, increment: ((p.done - last) / p.total) * 100 });
    last = p.done;
  });
  return done;
}

/**
 * Saves the thread as a snapshot. Without `dest` the user picks the file, starting in the Downloads (or home)
 * folder (export-folder.ts). Returns the path written, or undefined if cancelled.
 */
export async function exportThreadSnapshot(
  engine: Engine,
  threadId: string,
  dest?: vscode.Uri,
): Promise<string | undefined> {
  const target =
    dest ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(
        join(await defaultExportDir(engine), (await engine.call({ op: "export.names", threadId })).snapshot),
      ),
      filters: { "ACP Threads session snapshot": ["json"] },
      title: "Export session snapshot",
    }));
  if (!target) return undefined;
  const saved = await withProgress("Saving snapshot", (onProgress) =>
    engine.call({ op: "snapshot.export", threadId, outFile: target.fsPath }, { onProgress }),
  );
  return saved.path;
}

/** The `.acp-threads` folders of the open workspace, where the CLI saves and lists snapshots. */
function snapshotDirs(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => join(f.uri.fsPath, SNAPSHOT_DIR));
}

const describe = (l: SnapshotListing) =>
  `${new Date(l.savedAt).toLocaleString()} · ${l.messageCount} message${l.messageCount === 1 ? "" : "s"} · ${l.agent}${l.model ? ` (${l.model})` : ""}`;

/** Newest snapshots first (as `acp-threads threads import` lists them), then "Browse…". */
async function pickSnapshot(engine: Engine): Promise<string | undefined> {
  const listed = await engine.call({ op: "snapshot.list", dirs: snapshotDirs().map((dir) => ({ dir })) });
  type Item = vscode.QuickPickItem & { path?: string };
  const items: Item[] = listed.map((l) =>
    l.error
      ? { label: `$(warning) ${basename(l.path)}`, description: "unreadable", detail: l.error }
      : { label: l.title ?? basename(l.path), description: describe(l), detail: l.path, path: l.path },
  );
  items.push({ label: "$(folder-opened) Browse…", description: "a snapshot (.json) or thread file (.jsonl)" });
  const picked = await vscode.window.showQuickPick(items, {
    title: "Import session snapshot",
    placeHolder: listed.length ? "Snapshots in .acp-threads, newest first" : "No snapshots in .acp-threads yet",
  });
  if (!picked) return undefined;
  if (picked.path) return picked.path;
  if (!picked.label.includes("Browse")) return undefined; // an unreadable entry: its error is on the item
  const [uri] =
    (await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: FILTERS,
      title: "Import",
      defaultUri: vscode.Uri.file(await defaultExportDir(engine)), // where the editor's exports go
    })) ?? [];
  return uri?.fsPath;
}

/** When the snapshot's session folder does not exist here, offers the workspace folder instead. */
async function rootFor(rootDir: string, source: string): Promise<string | undefined | null> {
  if (await pathExists(rootDir)) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? dirname(dirname(source));
  const use = `Restore into ${basename(folder)}`;
  const answer = await vscode.window.showWarningMessage(
    `The session folder ${rootDir} of this snapshot does not exist here.`,
    { modal: true },
    use,
  );
  return answer === use ? folder : null;
}

/**
 * Restores a snapshot (or adds a `.jsonl` thread file) as a thread; without `src` the user picks one from the
 * workspace's `.acp-threads` listing or browses. Returns the new thread's id, or undefined if cancelled.
 */
export async function importThreadSnapshot(
  engine: Engine,
  store: ThreadStore,
  src?: vscode.Uri,
): Promise<string | undefined> {
  const path = src?.fsPath ?? (await pickSnapshot(engine));
  if (!path) return undefined;
  if (path.endsWith(".jsonl")) return store.importJsonl(path);
  const snap = await engine.call({ op: "snapshot.inspect", path });
  const rootDir = await rootFor(snap.rootDir, path);
  if (rootDir === null) return undefined;
  const warnings: string[] = [];
  const restored = await withProgress(
    "Restoring snapshot",
    (onProgress) => engine.call({ op: "snapshot.restore", path, ...(rootDir ? { rootDir } : {}) }, { onProgress }),
    warnings,
  );
  if (warnings.length) void vscode.window.showWarningMessage(`Snapshot restored: ${warnings.join("; ")}`);
  return restored.threadId;
}
