/**
 * A thread's ledger as plain data for views and `--format json`: each operation (turn, restore, undo) with
 * its files, workspace-relative where they are under the thread's folder.
 */
import type { EditLedger } from "./edit-ledger";
import { relUnder } from "./rel-path";
import type { FileState } from "./content";
import type { FileChange, LedgerView, OpView } from "./ledger-view";
import type { ChangeVia, OpType } from "./records";

export type ChangeKind = "added" | "modified" | "deleted";

export interface FileSummary {
  path: string;
  /** Relative to the thread's folder (the absolute path when outside it). */
  rel: string;
  change: ChangeKind;
  before: FileState | null;
  after: FileState | null;
  via: ChangeVia[];
  toolCallIds: string[];
}

export interface OpSummary {
  op: string;
  type: OpType;
  turn?: number;
  agent?: { id: string; name: string };
  /** The turn's stop reason, or "done" for a restore; absent while running or after a crash. */
  status?: string;
  startedAt: string;
  endedAt?: string;
  /** Restores and undos: the operation they went back before. */
  target?: { op: string; path?: string; hunk?: number | null };
  forced?: boolean;
  notes?: string[];
  files: FileSummary[];
}

export const changeKind = (f: Pick<FileChange, "before" | "after">): ChangeKind =>
  !f.before ? "added" : !f.after ? "deleted" : "modified";

/** `path` relative to `cwd` (`/`-separated), or `path` itself when it is `cwd` or outside it. */
export function relPath(cwd: string, path: string): string {
  return relUnder(cwd, path) || path;
}

export function summarizeOp(op: OpView, cwd: string): OpSummary {
  const s = op.summary;
  return {
    op: op.op,
    type: op.type,
    ...(op.turn !== undefined ? { turn: op.turn } : {}),
    ...(s?.agent ? { agent: s.agent } : {}),
    ...(s ? { status: s.status, endedAt: s.ts } : {}),
    startedAt: op.startedAt,
    ...(s?.target ? { target: s.target } : {}),
    ...(s?.forced ? { forced: true } : {}),
    ...(s?.notes?.length ? { notes: s.notes } : {}),
    files: op.files.map((f) => ({
      path: f.path,
      rel: relPath(cwd, f.path),
      change: changeKind(f),
      before: f.before,
      after: f.after,
      via: f.via,
      toolCallIds: f.toolCallIds,
    })),
  };
}

export function summarize(view: LedgerView, cwd: string): OpSummary[] {
  return view.ops.map((o) => summarizeOp(o, cwd));
}

export { filesChangedLabel } from "./files-label";

/** The files a thread's turns changed since `since` ("since you left", #36), relative to its folder where inside. */
export function filesChangedSince(ops: readonly OpView[], cwd: string, since: string): string[] {
  const files = new Set<string>();
  for (const op of ops) if (op.startedAt >= since) for (const f of op.files) files.add(relPath(cwd, f.path));
  return [...files];
}

/**
 * `filesChangedSince` of a thread from its edit ledger, without a synchronous file call (the extension host's
 * "Since you left"); none when it has no ledger or it cannot be read.
 */
export async function changedFilesOf(
  ledger: EditLedger,
  t: { threadId: string; cwd: string },
  since: string,
): Promise<string[]> {
  try {
    return filesChangedSince((await ledger.readAsync(t.threadId)).ops, t.cwd, since);
  } catch {
    return [];
  }
}
