/**
 * Cutting a torn last line (left by a writer killed mid-write) before new lines go on, so they never glue onto
 * garbage. Written once as steps (core/util/steps.ts): JsonlWriter runs them with synchronous calls on its fd, the
 * locked async append (locked-append.ts) through a FileHandle.
 */
import { ftruncate, ftruncateSync, read, readSync } from "node:fs";
import { promisify } from "node:util";
import type { Logger } from "../log";
import { runAsync, runSync, step, type Steps } from "../util/steps";

type TailOp = { kind: "read"; pos: number; len: number } | { kind: "truncate"; len: number };

const BLOCK = 64 * 1024;

/** Truncates a trailing partial line of the `size`-byte file; returns the resulting size. */
function* tornTailSteps(size: number, path: string, logger: Logger): Steps<TailOp, number> {
  if (size === 0) return 0;
  const last = yield* step<TailOp, Buffer>({ kind: "read", pos: size - 1, len: 1 });
  if (last[0] === 0x0a) return size;
  // walk back in blocks to the last newline
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - BLOCK);
    const block = yield* step<TailOp, Buffer>({ kind: "read", pos: start, len: end - start });
    const nl = block.lastIndexOf(0x0a);
    if (nl >= 0) {
      const keep = start + nl + 1;
      logger.warn(`thread ${path}: dropped a torn last line (${size - keep} bytes) left by an interrupted writer`);
      yield* step<TailOp, void>({ kind: "truncate", len: keep });
      return keep;
    }
    end = start;
  }
  logger.warn(`thread ${path}: the only line was torn (${size} bytes); starting it afresh`);
  yield* step<TailOp, void>({ kind: "truncate", len: 0 });
  return 0;
}

export function repairTornTail(fd: number, size: number, path: string, logger: Logger): number {
  return runSync(tornTailSteps(size, path, logger), (op) => {
    if (op.kind === "truncate") return ftruncateSync(fd, op.len);
    const buf = Buffer.allocUnsafe(op.len);
    return buf.subarray(0, readSync(fd, buf, 0, op.len, op.pos));
  });
}

const readAsync = promisify(read);
const ftruncateAsync = promisify(ftruncate);

/** `repairTornTail` with its reads and the truncate on the thread pool. */
export function repairTornTailAsync(fd: number, size: number, path: string, logger: Logger): Promise<number> {
  return runAsync(tornTailSteps(size, path, logger), async (op) => {
    if (op.kind === "truncate") return ftruncateAsync(fd, op.len);
    const buf = Buffer.allocUnsafe(op.len);
    return buf.subarray(0, (await readAsync(fd, buf, 0, op.len, op.pos)).bytesRead);
  });
}
