/**
 * Reviewing what an operation changed: the hunks of each file's change with their state (pending, kept,
 * undone), and the two answers per hunk or per file. Keep records a review line (nothing on disk changes);
 * Undo takes the change back out of the file as it is now (a three-way merge, so later edits elsewhere in the
 * file survive) and is recorded as an operation of its own — which a restore can take back in turn.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { AcpThreadsError } from "../errors";
import { keepVersion } from "./blob-store";
import type { FileState } from "./content";
import type { EditLedger } from "./edit-ledger";
import { hunksOf, revertHunk, type LineHunk } from "./hunks";
import { keptKey, type FileChange, type LedgerView, type OpView } from "./ledger-view";
import { mergeAgentWrite } from "../text/agent-write";
import { inParallel } from "../util/at-once";
import { diskWriter, type FileWriter } from "./restore";

export type HunkStatus = "pending" | "kept" | "undone";

export interface ReviewHunk extends LineHunk {
  index: number;
  status: HunkStatus;
}

export interface ReviewFile {
  op: string;
  turn?: number;
  path: string;
  change: FileChange;
  /** The texts, when both versions are kept (else the file can only be kept or undone whole). */
  before: string | null;
  after: string | null;
  diffable: boolean;
  hunks: ReviewHunk[];
  /** The file's own state: every hunk settled the same way, or "pending" while any is open. */
  status: HunkStatus;
}

/** A version's text: null when there was no file, undefined when it was not kept (binary, too large, gone). */
type Text = string | null | undefined;

async function textOfAsync(ledger: EditLedger, s: FileState | null): Promise<Text> {
  if (!s) return null;
  return s.stored ? ledger.blobs.getTextAsync(s.id!) : undefined;
}

/** Files of an operation reviewed at once (their versions read off the thread). */
const READS = 8;

/** Undo operations that took back (part of) `op`'s change to `path`: hunk indexes, null = the whole file. */
function undoneOf(view: LedgerView, op: string, path: string): Set<number | null> {
  const out = new Set<number | null>();
  for (const o of view.ops) {
    const t = o.summary?.target;
    if (o.type === "undo" && t?.op === op && t.path === path) out.add(t.hunk ?? null);
  }
  return out;
}

/** A file's change as review sees it, its two versions read off the host's thread. */
export async function reviewFileAsync(
  ledger: EditLedger,
  view: LedgerView,
  op: OpView,
  change: FileChange,
): Promise<ReviewFile> {
  const [before, after] = await Promise.all([textOfAsync(ledger, change.before), textOfAsync(ledger, change.after)]);
  return reviewed(view, op, change, before, after);
}

function reviewed(view: LedgerView, op: OpView, change: FileChange, before: Text, after: Text): ReviewFile {
  const diffable = before !== undefined && after !== undefined;
  const kept = view.kept.get(keptKey(op.op, change.path)) ?? new Set<number | null>();
  const undone = undoneOf(view, op.op, change.path);
  const hunks: ReviewHunk[] = (diffable ? hunksOf(before ?? "", after ?? "") : []).map((h, index) => ({
    ...h,
    index,
    status: undone.has(null) || undone.has(index) ? "undone" : kept.has(null) || kept.has(index) ? "kept" : "pending",
  }));
  const whole: HunkStatus = undone.has(null) ? "undone" : kept.has(null) ? "kept" : "pending";
  const status = hunks.length
    ? hunks.some((h) => h.status === "pending")
      ? "pending"
      : hunks.every((h) => h.status === "undone")
        ? "undone"
        : "kept"
    : whole;
  return {
    op: op.op,
    ...(op.turn !== undefined ? { turn: op.turn } : {}),
    path: change.path,
    change,
    before: before ?? null,
    after: after ?? null,
    diffable,
    hunks,
    status,
  };
}

/** Every file of an operation, as review sees it, read off the thread (the thread panel's "files changed" rows). */
export function reviewOpAsync(ledger: EditLedger, view: LedgerView, op: OpView): Promise<ReviewFile[]> {
  return inParallel(op.files, READS, (f) => reviewFileAsync(ledger, view, op, f));
}

function findChange(view: LedgerView, op: string, path: string): { op: OpView; change: FileChange } {
  const o = view.ops.find((x) => x.op === op);
  const change = o?.files.find((f) => f.path === path);
  if (!o || !change) throw new AcpThreadsError("not_found", `the ledger has no change to ${path} in ${op}`);
  return { op: o, change };
}

/** Keeps a hunk (or the whole file, `hunk: null`): recorded, nothing on disk changes. */
export async function keepChange(
  ledger: EditLedger,
  threadId: string,
  target: { op: string; path: string; hunk: number | null },
): Promise<void> {
  findChange(await ledger.readAsync(threadId), target.op, target.path);
  await ledger.append(threadId, [{ kind: "review", action: "keep", ...target }]);
}

/**
 * "Keep all" of an operation: every hunk (or whole file) still pending is kept, one review record each, exactly
 * as the individual keeps would record them. Returns how many were kept (0: nothing was left to review).
 */
export async function keepAllOf(ledger: EditLedger, threadId: string, opId: string): Promise<number> {
  const view = await ledger.readAsync(threadId);
  const op = view.ops.find((o) => o.op === opId);
  if (!op) throw new AcpThreadsError("not_found", `the ledger has no operation ${opId}`);
  const keeps = (await reviewOpAsync(ledger, view, op)).flatMap((f) =>
    f.hunks.length
      ? f.hunks.filter((h) => h.status === "pending").map((h) => ({ path: f.path, hunk: h.index as number | null }))
      : f.status === "pending"
        ? [{ path: f.path, hunk: null }]
        : [],
  );
  if (keeps.length)
    await ledger.append(
      threadId,
      keeps.map((k) => ({ kind: "review" as const, action: "keep" as const, op: opId, ...k })),
    );
  return keeps.length;
}

/**
 * Takes a hunk (or the whole change, `hunk: null`) of `op`'s change to `path` back out of the file as it is
 * now. Refuses, writing nothing, when the lines it would touch changed since (unless `force` for a whole file,
 * which then writes the version before the change).
 */
export async function undoChange(
  ledger: EditLedger,
  threadId: string,
  target: { op: string; path: string; hunk: number | null },
  opts: { cwd: string; writer?: FileWriter; force?: boolean; read?: (path: string) => Promise<string | null> },
): Promise<OpView> {
  const view = await ledger.readAsync(threadId);
  const { op, change } = findChange(view, target.op, target.path);
  const file = await reviewFileAsync(ledger, view, op, change);
  const current = await (opts.read ?? readText)(target.path);
  const result = undoResult(file, target.hunk, current, opts.force ?? false);
  const writer = opts.writer ?? diskWriter;
  const before = current === null ? null : await keepVersion(ledger.blobs, Buffer.from(current));
  const after = result === null ? null : await keepVersion(ledger.blobs, Buffer.from(result));
  if (result === null) await writer.remove(target.path);
  else await writer.write(target.path, Buffer.from(result));
  const id = `undo-${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  await ledger.append(threadId, [
    { kind: "change", op: id, path: target.path, before, after, via: "undo" },
    {
      kind: "op",
      op: id,
      type: "undo",
      cwd: opts.cwd,
      startedAt: new Date().toISOString(),
      status: "done",
      files: 1,
      target,
      ...(opts.force ? { forced: true } : {}),
    },
  ]);
  return (await ledger.readAsync(threadId)).ops.find((o) => o.op === id)!;
}

/** What the file becomes when the change (or one hunk of it) is taken back; throws on a conflict. */
function undoResult(file: ReviewFile, hunk: number | null, current: string | null, force: boolean): string | null {
  const conflict = (why: string) =>
    new AcpThreadsError(
      "usage",
      `cannot undo ${hunk === null ? "the change to" : `hunk ${hunk + 1} of`} ${file.path}: ${why}`,
    );
  if (hunk !== null) {
    const h = file.hunks[hunk];
    if (!h) throw new AcpThreadsError("not_found", `${file.path} has no hunk ${hunk + 1} in ${file.op}`);
    if (h.status === "undone") throw conflict("it is undone already");
    if (current === null) throw conflict("the file no longer exists");
    return merge(file.after ?? "", revertHunk(file.before ?? "", file.after ?? "", h), current, conflict);
  }
  if (!file.diffable) throw conflict("its earlier version was not kept (binary or too large)");
  const { before, after } = file;
  if (current === after || force) return before;
  if (after === null) throw conflict("the file was created again since");
  if (current === null) throw conflict("the file no longer exists");
  if (before === null) throw conflict("the file was edited since it was created; confirm to delete it anyway");
  return merge(after, before, current, conflict);
}

function merge(base: string, next: string, current: string, conflict: (why: string) => Error): string {
  const m = mergeAgentWrite(base, next, current);
  if (m.kind === "conflict") throw conflict(`line ${m.firstConflictLine} was changed since; edit it by hand`);
  return m.text;
}

const readText = (path: string): Promise<string | null> => readFile(path, "utf8").catch(() => null);
