/**
 * The edit ledger's JSONL records, one file per thread (`<home>/ledger/<threadId>.jsonl`), append-only.
 *
 * - `change`: one file changed within an operation (`before` → `after`, either may be null = absent). A turn's
 *   writes through our fs handler are appended as they happen; what changed on disk is appended at turn end.
 *   Several records for the same path in one operation are one change: first `before`, last `after`.
 * - `op`: closes an operation (a turn, a restore, an undo, a worktree apply) with its summary. An operation without one was cut
 *   short (crash) and still counts.
 * - `review`: the user kept a hunk (or a whole file, `hunk: null`) of an operation's change.
 * Paths are absolute. Contents live in the blob store by id (see content.ts).
 */
import { parseState, type FileState } from "./content";

export const LEDGER_VERSION = 1;

export type ChangeVia = "fs_write" | "disk" | "restore" | "undo" | "apply";
/** `apply`: a worktree's changes brought into the main workspace (#25). */
export type OpType = "turn" | "restore" | "undo" | "apply";

export interface ChangeRecord {
  v: 1;
  ts: string;
  kind: "change";
  op: string;
  path: string;
  before: FileState | null;
  after: FileState | null;
  via: ChangeVia;
  toolCallId?: string;
  /**
   * Worktree applies (#25): the worktree's version of the file this change took in (null: the worktree deleted
   * it). Equal to `after` unless the file was merged; the next apply of the same worktree compares against it.
   */
  source?: FileState | null;
}

export interface OpRecord {
  v: 1;
  ts: string;
  kind: "op";
  op: string;
  type: OpType;
  /** The thread's turn (1-based) for turn operations. */
  turn?: number;
  agent?: { id: string; name: string };
  cwd: string;
  startedAt: string;
  /** How the turn ended (stop reason), or "done" / "failed" for restores and undos. */
  status: string;
  files: number;
  /** Restores and undos: the operation (and for undos the file and hunk) they went back on. */
  target?: { op: string; path?: string; hunk?: number | null };
  /** The user confirmed overwriting edits made after the target. */
  forced?: boolean;
  /** Why some change could not be captured or applied (binary, too large, not tracked). */
  notes?: string[];
}

export interface ReviewRecord {
  v: 1;
  ts: string;
  kind: "review";
  op: string;
  path: string;
  /** Index into the change's hunks (before → after), or null for the whole file. */
  hunk: number | null;
  action: "keep";
}

export type LedgerRecord = ChangeRecord | OpRecord | ReviewRecord;
type Input<T> = Omit<T, "v" | "ts">;
export type LedgerInput = Input<ChangeRecord> | Input<OpRecord> | Input<ReviewRecord>;

export function stampLedger(input: LedgerInput, now: Date = new Date()): LedgerRecord {
  return { v: LEDGER_VERSION, ts: now.toISOString(), ...input } as LedgerRecord;
}

const isStr = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** Parses one line; an error message for anything that is not a valid record of this version. */
export function parseLedgerLine(line: string): { ok: true; record: LedgerRecord } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `invalid JSON: ${(err as Error).message}` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { ok: false, error: "not a JSON object" };
  const r = v as Record<string, unknown>;
  if (r.v !== LEDGER_VERSION)
    return { ok: false, error: `ledger record version ${String(r.v)} is not ${LEDGER_VERSION}; upgrade ACP Threads` };
  if (!isStr(r.ts) || !isStr(r.op) || !isStr(r.kind)) return { ok: false, error: "missing ts, op or kind" };
  switch (r.kind) {
    case "change": {
      const before = parseState(r.before);
      const after = parseState(r.after);
      if (!isStr(r.path) || before === undefined || after === undefined || !isStr(r.via))
        return { ok: false, error: "change: bad path, before, after or via" };
      // a malformed `source` (optional) is dropped: the next apply then compares against the worktree's base
      const { source: rawSource, ...rest } = r;
      const source = rawSource === undefined ? undefined : parseState(rawSource);
      return {
        ok: true,
        record: { ...rest, before, after, ...(source !== undefined ? { source } : {}) } as ChangeRecord,
      };
    }
    case "op":
      if (!isStr(r.type) || !isStr(r.cwd) || !isStr(r.startedAt) || typeof r.files !== "number")
        return { ok: false, error: "op: bad type, cwd, startedAt or files" };
      return { ok: true, record: r as unknown as OpRecord };
    case "review":
      if (!isStr(r.path) || !(r.hunk === null || Number.isInteger(r.hunk)) || r.action !== "keep")
        return { ok: false, error: "review: bad path, hunk or action" };
      return { ok: true, record: r as unknown as ReviewRecord };
    default:
      return { ok: false, error: `unknown ledger record kind '${String(r.kind)}'` };
  }
}
