/** Shared by the engine request tests: a stored thread with a conversation. */
import type { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput } from "../store/helpers";

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
