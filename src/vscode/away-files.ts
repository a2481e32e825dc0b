/**
 * "Since you left" in the Sessions view with the files each thread changed since then (#36), as
 * `acp-threads threads list --since` prints them: read from the thread's edit ledger asynchronously (the host's
 * thread never waits on the disk), for the first `AWAY_FILES_MAX` threads, once per thread and last activity.
 */
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";

/** A file a thread changed since you left (below its row under "Since you left"). */
export interface AwayFileNode {
  type: "file";
  threadId: string;
  cwd: string;
  path: string;
}

/** What of a past thread the files are read by. */
interface AwayThread {
  threadId: string;
  cwd: string;
  updatedAt: string;
}

/** A "Since you left" row's child (sessions-tree.ts): a past thread's row gets its `files`. */
interface AwayChild {
  type: string;
  thread?: AwayThread;
  files?: string[];
}

/** "Since you left" reads the changed files of this many of its threads (each an async ledger read). */
const AWAY_FILES_MAX = 50;

export class AwayFiles {
  /** Each thread's changed files, read once per (since, last activity): the tree lists again every minute. */
  readonly #known = new Map<string, { key: string; files: string[] }>();

  constructor(private readonly filesOf: (thread: AwayThread, since: string) => Promise<string[]>) {}

  /** `away` with each of its threads' changed files (below its row); returns it. */
  async attach<T extends { since: string; children: AwayChild[] }>(away: T): Promise<T> {
    const since = away.since;
    await Promise.all(
      away.children.slice(0, AWAY_FILES_MAX).map(async (child) => {
        const t = child.type === "past" ? child.thread : undefined;
        if (!t) return;
        const key = `${since} ${t.updatedAt}`;
        const known = this.#known.get(t.threadId);
        const files = known?.key === key ? known.files : await this.filesOf(t, since).catch(() => []);
        this.#known.set(t.threadId, { key, files });
        if (files.length) child.files = files;
      }),
    );
    return away;
  }
}

/** A changed file's row: its path (relative to the thread's folder when inside it); opens the file. */
export function awayFileItem(node: AwayFileNode): vscode.TreeItem {
  const abs = isAbsolute(node.path) ? node.path : join(node.cwd, node.path);
  const item = new vscode.TreeItem(node.path);
  item.id = `away:file:${node.threadId}:${node.path}`;
  item.resourceUri = vscode.Uri.file(abs);
  item.iconPath = vscode.ThemeIcon.File;
  item.tooltip = abs;
  item.contextValue = "away-file";
  item.command = { command: "vscode.open", title: "Open", arguments: [item.resourceUri] };
  return item;
}
