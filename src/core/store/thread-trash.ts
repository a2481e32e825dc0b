/**
 * A thread to the trash folder and back (ThreadStore.delete / deleteAsync / restore), written once as steps
 * (util/steps.ts) and run with synchronous file calls (the CLI, the thread host) or on libuv's thread pool (the
 * extension host: a delete from the Sessions view never waits on the disk on the window's thread). The delete holds
 * the thread's lock while it moves the file, so no writer can open it in between; its images travel with it.
 */
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { AcpThreadsError } from "../errors";
import { describeHolder, tryAcquireLock, tryAcquireLockAsync, type LockHolder } from "./file-lock";
import type { PendingCloses } from "./pending-closes";
import { assetsDir, type HomeLayout } from "./paths";
import { pathExists } from "../util/path-exists";
import { step, type Steps } from "../util/steps";

/** Where a thread moves: its file (`path` → `dest`) and its images' folder (`assets` → `assetsDest`). */
export interface ThreadMove {
  threadId: string;
  path: string;
  dest: string;
  assets: string;
  assetsDest: string;
}

type Lock = { ok: true; release: () => unknown } | { ok: false; holder: LockHolder };

export type TrashOp =
  | { kind: "exists"; path: string }
  /** A close of the thread under way in this process ends first (its lock would refuse the delete). */
  | { kind: "settle"; threadId: string }
  | { kind: "lock"; path: string }
  | { kind: "unlock"; release: () => unknown }
  | { kind: "mkdir"; path: string }
  | { kind: "rename"; from: string; to: string };

export const threadNotFound = (threadId: string) => new AcpThreadsError("not_found", `no thread ${threadId}`);

/** The move of thread `threadId` to the trash (`toTrash`) or back from it. */
export function threadMove(threadId: string, layout: HomeLayout, toTrash: boolean): ThreadMove {
  const [from, to] = toTrash ? [layout.threadsDir, layout.trashDir] : [layout.trashDir, layout.threadsDir];
  const file = (dir: string) => join(dir, `${threadId}.jsonl`);
  return {
    threadId,
    path: file(from),
    dest: file(to),
    assets: assetsDir(from, threadId),
    assetsDest: assetsDir(to, threadId),
  };
}

const exists = (path: string) => step<TrashOp, boolean>({ kind: "exists", path });

/** Moves the thread to the trash under its lock; refused (`locked`) while a writer is live. Returns `dest`. */
export function* deleteSteps(m: ThreadMove): Steps<TrashOp, string> {
  if (!(yield* exists(m.path))) throw threadNotFound(m.threadId);
  yield* step<TrashOp, void>({ kind: "settle", threadId: m.threadId });
  // holding the lock while moving it: no writer can open it in between
  const lock = yield* step<TrashOp, Lock>({ kind: "lock", path: m.path });
  if (!lock.ok) {
    const h = lock.holder;
    throw new AcpThreadsError(
      "locked",
      `cannot delete a thread while process ${h.pid} is writing it (${describeHolder(h)})`,
      { holder: h },
    );
  }
  try {
    yield* moveSteps(m);
    return m.dest;
  } finally {
    yield* step<TrashOp, void>({ kind: "unlock", release: lock.release });
  }
}

/** Brings the thread back from the trash (`m` from the trash to the threads folder); never overwrites one. */
export function* restoreSteps(m: ThreadMove): Steps<TrashOp, string> {
  if (!(yield* exists(m.path))) throw new AcpThreadsError("not_found", `thread ${m.threadId} is not in the trash`);
  if (yield* exists(m.dest))
    throw new AcpThreadsError("usage", `thread ${m.threadId} already exists; not overwriting it`);
  yield* moveSteps(m);
  return m.dest;
}

function* moveSteps(m: ThreadMove): Steps<TrashOp, void> {
  yield* step<TrashOp, void>({ kind: "mkdir", path: dirname(m.dest) });
  yield* step<TrashOp, void>({ kind: "rename", from: m.path, to: m.dest });
  // a thread's attached images travel with it
  if ((yield* exists(m.assets)) && !(yield* exists(m.assetsDest)))
    yield* step<TrashOp, void>({ kind: "rename", from: m.assets, to: m.assetsDest });
}

/** The steps run with synchronous file calls; a close under way is finished on the caller's thread. */
export const execTrashSync =
  (closing: PendingCloses) =>
  (op: TrashOp): unknown => {
    switch (op.kind) {
      case "exists":
        return existsSync(op.path);
      case "settle":
        return closing.finish(op.threadId);
      case "lock":
        return tryAcquireLock(op.path);
      case "unlock":
        return op.release();
      case "mkdir":
        return mkdirSync(op.path, { recursive: true, mode: 0o700 });
      case "rename":
        return renameSync(op.from, op.to);
    }
  };

/** The steps run on libuv's thread pool; a close under way is waited for. */
export const execTrashAsync =
  (closing: PendingCloses) =>
  async (op: TrashOp): Promise<unknown> => {
    switch (op.kind) {
      case "exists":
        return pathExists(op.path);
      case "settle":
        return closing.whenClosed(op.threadId);
      case "lock":
        return tryAcquireLockAsync(op.path);
      case "unlock":
        return await op.release();
      case "mkdir":
        return mkdir(op.path, { recursive: true, mode: 0o700 });
      case "rename":
        return rename(op.from, op.to);
    }
  };
