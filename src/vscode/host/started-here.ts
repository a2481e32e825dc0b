/**
 * The threads this window started or continued in the thread host: their finished turns are this window's to tell
 * (hosted-turn-notify.ts). Kept in the workspace's state, so the window a reload reopens still tells the turns of
 * the runs the host kept going (a reload is what the host is for). Thread ids only; bounded to the STARTED_KEEP most
 * recent. The state is read once, in memory; each change is written in the background (the editor's storage).
 */
import type * as vscode from "vscode";
import { isThreadId } from "../../core/model/thread-id";
import { background } from "../../core/util/unexpected";

export const STARTED_HERE_KEY = "acpThreads.host.startedHere";
export const STARTED_KEEP = 200;

export class StartedHere implements Iterable<string> {
  /** Oldest first. */
  readonly #ids: Set<string>;

  constructor(private readonly state: Pick<vscode.Memento, "get" | "update">) {
    const kept = state.get<unknown>(STARTED_HERE_KEY);
    const ids = Array.isArray(kept) ? kept.filter((id): id is string => typeof id === "string" && isThreadId(id)) : [];
    this.#ids = new Set(ids.slice(-STARTED_KEEP));
  }

  has(threadId: string): boolean {
    return this.#ids.has(threadId);
  }

  /** Remembers a thread as the most recent one (the oldest beyond STARTED_KEEP is forgotten). */
  add(threadId: string): void {
    this.#ids.delete(threadId);
    this.#ids.add(threadId);
    for (const old of this.#ids) {
      if (this.#ids.size <= STARTED_KEEP) break;
      this.#ids.delete(old);
    }
    background(Promise.resolve(this.state.update(STARTED_HERE_KEY, [...this.#ids])), "remembering a hosted thread");
  }

  [Symbol.iterator](): Iterator<string> {
    return this.#ids.values();
  }
}
