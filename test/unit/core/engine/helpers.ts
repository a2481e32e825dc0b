/** Shared by the engine request tests: a stored thread with a conversation, what a call answers or throws. */
import { join } from "node:path";
import type { Engine, EngineProgress, EngineRequest } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import type { WorktreeRef } from "../../../../src/core/model/records";
import type { ThreadStore } from "../../../../src/core/store/thread-store";
import { createWorktree } from "../../../../src/core/worktree/create";
import { startInput } from "../store/helpers";
import { repoAt } from "../worktree/helpers";

/** A thread of `pairs` questions and answers in `dir`; its id. */
export function threadWith(store: ThreadStore, dir: string, pairs: number, title = "Demo"): string {
  const h = store.create(startInput(dir, { repoRoot: dir, title }));
  for (let i = 0; i < pairs; i++) {
    h.append({ kind: "user_message", messageId: `u${i}`, text: `question ${i}` });
    h.append({ kind: "agent_message", messageId: `a${i}`, text: `answer ${i}` });
  }
  h.close();
  return h.threadId;
}

/** A thread working in a new worktree of a new repository `<dir>/repo`: its id and the worktree. */
export async function worktreeThread(store: ThreadStore, dir: string): Promise<{ threadId: string; ref: WorktreeRef }> {
  const { ref } = await createWorktree(repoAt(join(dir, "repo")));
  const threadId = threadWith(store, dir, 1, "In a worktree");
  store.patchMetadata(threadId, { worktree: ref });
  return { threadId, ref };
}

/** What an engine call answers or throws: a reply, or the error's class, code and message. */
export async function outcome(engine: Engine, req: EngineRequest): Promise<unknown> {
  try {
    return { reply: await engine.call(req) };
  } catch (err) {
    const e = err as AcpThreadsError;
    return { error: [e instanceof AcpThreadsError, e.code, e.message] };
  }
}

/** Runs `fn` with the engine over the socket of the thread host serving `home` (closed after). */
export async function withSocketEngine(home: string, fn: (engine: Engine) => Promise<void>): Promise<void> {
  const conn = await connectHost({ home, client: "engine request test" });
  if (!conn) throw new Error(`no thread host answers for ${home}`);
  try {
    await fn(conn.asEngine);
  } finally {
    conn.close();
  }
}

/**
 * What a `threads.follow` pushes, kept in order: `on` is the call's onProgress; `until(cond)` resolves at the first
 * push after which `cond` holds (at once if it holds already): the tests wait on pushes, never on time.
 */
export function followPushes() {
  const list: EngineProgress[] = [];
  let wake = () => {};
  const records = () => list.flatMap((p) => (p.t === "records" ? p.records : []));
  const holders = () => list.flatMap((p) => (p.t === "holder" ? [p.holder] : []));
  return {
    list,
    records,
    holders,
    on: (p: EngineProgress) => (list.push(p), wake()),
    until: async (cond: () => boolean) => {
      while (!cond()) await new Promise<void>((r) => (wake = r));
    },
  };
}
