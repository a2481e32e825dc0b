/**
 * Folds a thread's ledger records into operations with one merged change per file (derived: rebuilt from the
 * file at every read). Operations keep the order their first record was written in.
 */
import type { FileState } from "./content";
import type { ReadWarning } from "../store/jsonl-reader";
import type { ChangeVia, LedgerRecord, OpRecord, OpType } from "./records";

export interface FileChange {
  path: string;
  /** When the last record of this change was written. */
  ts: string;
  before: FileState | null;
  after: FileState | null;
  via: ChangeVia[];
  toolCallIds: string[];
  /** Worktree applies: the worktree's version taken in, from the last record that named it (see records.ts). */
  source?: FileState | null;
}

export interface OpView {
  op: string;
  type: OpType;
  turn?: number;
  /** The op record, once the operation ended (undefined: still running, or cut short by a crash). */
  summary?: OpRecord;
  startedAt: string;
  files: FileChange[];
}

export interface LedgerView {
  ops: OpView[];
  /** Kept hunks: `${op}\0${path}` → hunk indexes (null = the whole file). */
  kept: Map<string, Set<number | null>>;
  warnings: ReadWarning[];
}

export const keptKey = (op: string, path: string) => `${op}\0${path}`;

const opTypeOf = (op: string): OpType =>
  op.startsWith("turn-") ? "turn" : op.startsWith("undo-") ? "undo" : op.startsWith("apply-") ? "apply" : "restore";

export function foldLedger(records: readonly LedgerRecord[], warnings: ReadWarning[] = []): LedgerView {
  const ops = new Map<string, OpView>();
  const kept = new Map<string, Set<number | null>>();
  const opOf = (id: string, ts: string): OpView => {
    let o = ops.get(id);
    if (!o) {
      const turn = /^turn-(\d+)$/.exec(id);
      o = { op: id, type: opTypeOf(id), startedAt: ts, files: [], ...(turn ? { turn: Number(turn[1]) } : {}) };
      ops.set(id, o);
    }
    return o;
  };
  for (const r of records) {
    if (r.kind === "change") {
      const o = opOf(r.op, r.ts);
      const f = o.files.find((x) => x.path === r.path);
      if (!f) {
        o.files.push({
          path: r.path,
          ts: r.ts,
          before: r.before,
          after: r.after,
          via: [r.via],
          toolCallIds: r.toolCallId ? [r.toolCallId] : [],
          ...(r.source !== undefined ? { source: r.source } : {}),
        });
      } else {
        f.after = r.after;
        f.ts = r.ts;
        if (r.source !== undefined) f.source = r.source;
        if (!f.via.includes(r.via)) f.via.push(r.via);
        if (r.toolCallId && !f.toolCallIds.includes(r.toolCallId)) f.toolCallIds.push(r.toolCallId);
      }
    } else if (r.kind === "op") {
      const o = opOf(r.op, r.startedAt);
      o.summary = r;
      o.type = r.type;
      o.startedAt = r.startedAt;
      if (r.turn !== undefined) o.turn = r.turn;
    } else {
      const key = keptKey(r.op, r.path);
      let set = kept.get(key);
      if (!set) kept.set(key, (set = new Set()));
      set.add(r.hunk);
    }
  }
  // a change whose before equals its after (written, then written back) is no change
  for (const o of ops.values()) o.files = o.files.filter((f) => !sameState(f.before, f.after));
  return { ops: [...ops.values()], kept, warnings };
}

function sameState(a: FileState | null, b: FileState | null): boolean {
  if (!a || !b) return a === b;
  return !!a.id && a.id === b.id;
}

export function findTurn(view: LedgerView, turn: number): OpView | undefined {
  return view.ops.find((o) => o.type === "turn" && o.turn === turn);
}

/**
 * The net change per file over `ops` (in order): the first `before` and the last `after` of each path.
 * Paths whose net change is nothing (changed, then changed back) are left out.
 */
export function netChanges(ops: readonly OpView[]): FileChange[] {
  const net = new Map<string, FileChange>();
  for (const o of ops) {
    for (const f of o.files) {
      const n = net.get(f.path);
      if (!n) net.set(f.path, { ...f, via: [...f.via], toolCallIds: [...f.toolCallIds] });
      else {
        n.after = f.after;
        n.ts = f.ts;
        for (const v of f.via) if (!n.via.includes(v)) n.via.push(v);
      }
    }
  }
  return [...net.values()].filter((f) => !sameState(f.before, f.after));
}
