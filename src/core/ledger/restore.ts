/**
 * "Restore the workspace to before this turn": every file the thread changed in that turn or later goes back to
 * the version it had before the turn. The plan is a preview; applying it refuses to overwrite a file that
 * changed after the ledger's last record of it (someone edited it since) unless forced, and records the
 * restore as an operation of its own — so a restore can be restored away the same way.
 */
import { randomBytes } from "node:crypto";
import { readFile, unlink } from "node:fs/promises";
import { AcpThreadsError } from "../errors";
import { atomicWriteFile } from "../acp/disk-workspace-files";
import { blobId, keepVersion } from "./blob-store";
import { isBinary, sameContent, type FileState, type LedgerLimits } from "./content";
import type { EditLedger } from "./edit-ledger";
import { netChanges, type OpView } from "./ledger-view";
import type { LedgerInput } from "./records";

export interface RestoreItem {
  path: string;
  /** The version the file goes back to (null: it did not exist, so it is deleted). */
  target: FileState | null;
  /** The ledger's last record of the file: what should be on disk now. */
  expected: FileState | null;
  /** What is on disk now. */
  current: FileState | null;
  action: "revert" | "delete" | "recreate" | "unchanged";
  /** The file changed after the ledger's last record of it: restoring overwrites those edits. */
  conflict: boolean;
  /** Why the target version cannot be written back (binary, too large, missing blob). */
  unavailable?: string;
  /** The turns, from the target on, that changed the file (the preview names later turns' files). */
  turns: number[];
}

export interface RestorePlan {
  threadId: string;
  /** The operation the workspace goes back to before. */
  target: { op: string; turn?: number };
  items: RestoreItem[];
}

export interface FileWriter {
  /** `mode`: for a file that does not exist yet (an existing one keeps its own). */
  write(path: string, content: Uint8Array, mode?: number): Promise<void>;
  remove(path: string): Promise<void>;
}

export const diskWriter: FileWriter = {
  write: (path, content, mode) => atomicWriteFile(path, content, mode),
  remove: (path) => unlink(path).catch((err) => (err.code === "ENOENT" ? undefined : Promise.reject(err))),
};

/** Which operation a `--turn N` / op id names; a usage error naming what exists otherwise. */
export function resolveTarget(ops: readonly OpView[], target: { turn?: number; op?: string }): number {
  const i =
    target.op !== undefined
      ? ops.findIndex((o) => o.op === target.op)
      : ops.findIndex((o) => o.type === "turn" && o.turn === target.turn);
  if (i >= 0) return i;
  const turns = ops.filter((o) => o.type === "turn" && o.files.length).map((o) => o.turn);
  const what = target.op !== undefined ? `operation ${target.op}` : `turn ${target.turn}`;
  throw new AcpThreadsError(
    "not_found",
    `the thread's ledger has no ${what}${turns.length ? ` (turns with changes: ${turns.join(", ")})` : " (no recorded changes)"}`,
  );
}

/** What the state of `path` on disk is now (read and hashed; large files by size only). */
export async function diskState(path: string, limits?: Partial<LedgerLimits>): Promise<FileState | null> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  if (limits?.maxFileBytes && buf.length > limits.maxFileBytes)
    return { id: null, size: buf.length, stored: false, tooLarge: true };
  return { id: blobId(buf), size: buf.length, stored: false, ...(isBinary(buf) ? { binary: true as const } : {}) };
}

function stateOfText(text: string | null): FileState | null {
  if (text === null) return null;
  const buf = Buffer.from(text, "utf8");
  return { id: blobId(buf), size: buf.length, stored: false, ...(isBinary(buf) ? { binary: true as const } : {}) };
}

export async function planRestore(
  ledger: EditLedger,
  threadId: string,
  target: { turn?: number; op?: string },
  /** The file as the user sees it (an editor's unsaved text); default: the disk. */
  read?: (path: string) => Promise<string | null>,
): Promise<RestorePlan> {
  const view = await ledger.readAsync(threadId);
  const from = resolveTarget(view.ops, target);
  const op = view.ops[from];
  const later = view.ops.slice(from);
  const turnsOf = (path: string) =>
    later.flatMap((o) =>
      o.type === "turn" && o.turn !== undefined && o.files.some((x) => x.path === path) ? [o.turn] : [],
    );
  const items = await Promise.all(
    netChanges(later).map(async (f): Promise<RestoreItem> => {
      const current = read ? stateOfText(await read(f.path)) : await diskState(f.path);
      const unchanged = sameContent(current, f.before);
      const kept = !!f.before?.stored && !unchanged && (await ledger.blobs.hasAsync(f.before.id!));
      const unavailable =
        !f.before || unchanged
          ? undefined
          : f.before.binary
            ? "binary files are not kept"
            : f.before.tooLarge
              ? `too large to keep (${f.before.size} bytes)`
              : !kept
                ? "its earlier version was not captured"
                : undefined;
      return {
        path: f.path,
        target: f.before,
        expected: f.after,
        current,
        action: unchanged ? "unchanged" : !f.before ? "delete" : !current ? "recreate" : "revert",
        conflict: !unchanged && !sameContent(current, f.after),
        ...(unavailable ? { unavailable } : {}),
        turns: turnsOf(f.path),
      };
    }),
  );
  items.sort((a, b) => a.path.localeCompare(b.path));
  return { threadId, target: { op: op.op, ...(op.turn !== undefined ? { turn: op.turn } : {}) }, items };
}

/**
 * Writes the plan's target versions and records the restore. Throws (writing nothing) when a file changed
 * after the ledger's record of it, unless `force`.
 */
export async function applyRestore(
  ledger: EditLedger,
  plan: RestorePlan,
  opts: { force?: boolean; writer?: FileWriter; cwd: string },
): Promise<OpView> {
  const conflicts = plan.items.filter((i) => i.conflict && !i.unavailable);
  if (conflicts.length && !opts.force) {
    throw new AcpThreadsError(
      "usage",
      `${conflicts.length} file${conflicts.length === 1 ? " was" : "s were"} changed after the thread's last change to ${conflicts.length === 1 ? "it" : "them"}; restoring would overwrite those edits: ${conflicts.map((c) => c.path).join(", ")}. Confirm to overwrite them.`,
      { conflicts: conflicts.map((c) => c.path) },
    );
  }
  const writer = opts.writer ?? diskWriter;
  const op = `restore-${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const todo = plan.items.filter((i) => i.action !== "unchanged" && !i.unavailable);
  const notes = plan.items.filter((i) => i.unavailable).map((i) => `${i.path}: not restored, ${i.unavailable}`);
  const changes: LedgerInput[] = [];
  const startedAt = new Date().toISOString();
  await inBatches(todo, 16, async (item) => {
    const content = item.target && (await ledger.blobs.getAsync(item.target.id!));
    if (item.target && !content) {
      notes.push(`${item.path}: not restored, its earlier version went missing from the blob store`);
      return;
    }
    const overwritten = await keepCurrent(ledger, item.path); // so that undoing the restore brings it back
    if (content) await writer.write(item.path, content);
    else await writer.remove(item.path);
    changes.push({ kind: "change", op, path: item.path, before: overwritten, after: item.target, via: "restore" });
  });
  await ledger.append(plan.threadId, [
    ...changes,
    {
      kind: "op",
      op,
      type: "restore",
      cwd: opts.cwd,
      startedAt,
      status: "done",
      files: changes.length,
      target: { op: plan.target.op },
      ...(opts.force && conflicts.length ? { forced: true } : {}),
      ...(notes.length ? { notes } : {}),
    },
  ]);
  return (await ledger.readAsync(plan.threadId)).ops.find((o) => o.op === op)!;
}

/** Stores the version on disk that is about to be overwritten (text within limits; others are noted). */
async function keepCurrent(ledger: EditLedger, path: string): Promise<FileState | null> {
  const buf = await readFile(path).catch(() => undefined);
  return buf ? keepVersion(ledger.blobs, buf) : null;
}

/** Runs `fn` over `items`, `n` at a time. */
export async function inBatches<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}
