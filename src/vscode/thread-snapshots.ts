/**
 * Export/Import snapshot in the editor, through the core snapshot module (src/core/snapshot): the same
 * `saved_session_*.json` files the CLI writes (`threads export`) and lists (`threads import`), written
 * atomically (0600) with secrets redacted. The save dialog (and the import's Browse) starts in the user's
 * Downloads (or home) folder, never the repository (#37); the import list shows the CLI's
 * `<session folder>/.acp-threads/`. A `.jsonl` file (`threads export --jsonl`) is added as a thread through the
 * store (validated, torn tail cut, atomic).
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import * as vscode from "vscode";
import { listSnapshots, readSnapshot, restoreSnapshot, type SnapshotListing } from "../core/snapshot/load";
import {
  PROGRESS_THRESHOLD,
  saveSnapshot,
  snapshotFileName,
  snapshotFromThread,
  SNAPSHOT_DIR,
  type Progress,
} from "../core/snapshot/save";
import type { ThreadStore } from "../core/store/thread-store";
import { defaultExportDir } from "./export-folder";

const FILTERS = { "ACP Threads session snapshot": ["json"], "ACP Threads thread file": ["jsonl"] };

/** Runs `work` with a notification progress bar fed by the core's message progress. */
function withProgress<T>(title: string, total: number, work: (onProgress?: Progress) => T): Thenable<T> | T {
  if (total <= PROGRESS_THRESHOLD) return work();
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async (p) => {
    let last = 0;
    return work((done, all) => {
      p.report({ message: `${done}/${all} messages`, increment: ((done - last) / all) * 100 });
      last = done;
    });
  });
}

/**
 * Saves the thread as a snapshot. Without `dest` the user picks the file, starting in the Downloads (or home)
 * folder (export-folder.ts). Returns the path written, or undefined if cancelled.
 */
export async function exportThreadSnapshot(
  store: ThreadStore,
  threadId: string,
  dest?: vscode.Uri,
): Promise<string | undefined> {
  const thread = await store.readExisting(threadId);
  const snap = await withProgress("Saving snapshot", thread.records.length, (onProgress) =>
    snapshotFromThread(thread, { onProgress }),
  );
  const target =
    dest ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(join(await defaultExportDir(), snapshotFileName(snap))),
      filters: { "ACP Threads session snapshot": ["json"] },
      title: "Export session snapshot",
    }));
  if (!target) return undefined;
  return saveSnapshot(snap, { outFile: target.fsPath });
}

/** The `.acp-threads` folders of the open workspace, where the CLI saves and lists snapshots. */
function snapshotDirs(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => join(f.uri.fsPath, SNAPSHOT_DIR));
}

const describe = (l: SnapshotListing) =>
  `${new Date(l.savedAt).toLocaleString()} · ${l.messageCount} message${l.messageCount === 1 ? "" : "s"} · ${l.agent}${l.model ? ` (${l.model})` : ""}`;

/** Newest snapshots first (as `acp-threads threads import` lists them), then "Browse…". */
async function pickSnapshot(): Promise<string | undefined> {
  const listed = snapshotDirs()
    .flatMap((d) => listSnapshots(d))
    .sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
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
      defaultUri: vscode.Uri.file(await defaultExportDir()), // where the editor's exports go
    })) ?? [];
  return uri?.fsPath;
}

/** When the snapshot's session folder does not exist here, offers the workspace folder instead. */
async function rootFor(rootDir: string, source: string): Promise<string | undefined | null> {
  if (existsSync(rootDir)) return undefined;
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
export async function importThreadSnapshot(store: ThreadStore, src?: vscode.Uri): Promise<string | undefined> {
  const path = src?.fsPath ?? (await pickSnapshot());
  if (!path) return undefined;
  if (path.endsWith(".jsonl")) return store.importJsonl(path);
  const snap = readSnapshot(path);
  const rootDir = await rootFor(snap.state.root_dir, path);
  if (rootDir === null) return undefined;
  const warnings: string[] = [];
  const id = await withProgress("Restoring snapshot", snap.state.messages.length, (onProgress) =>
    restoreSnapshot(store, snap, path, { rootDir, onProgress, onWarning: (w) => warnings.push(w) }),
  );
  if (warnings.length) void vscode.window.showWarningMessage(`Snapshot restored: ${warnings.join("; ")}`);
  return id;
}
