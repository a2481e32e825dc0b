/**
 * The threads of this window whose run in a thread host failed to start (#35 item 7, step 3): the host answered the
 * `run` with `start_failed` (its agent's command missing, no Node fits it, it exited during initialize …), so no
 * host holds them and a new one has no file. Each stays a failed thread here, as a window session's failed start
 * does: a Sessions row with the failed icon and a panel saying why (hosted-threads.ts draws both), until the user
 * stops it (Stop session) or newer ones push it out (MAX_CLOSED, as the window's closed sessions); a later run of
 * the thread takes its place.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { refusalCode } from "../../core/host/protocol-refusal";
import type { ThreadMetadata } from "../../core/model/metadata";
import type { RuntimeEvent } from "../../core/model/events";
import { MAX_CLOSED } from "../live-sessions";
import { displayTitle } from "../thread-title";

/** The thread as its row and panel header show it (a Sessions listing's summary, sessions-tree.ts). */
export type FailedThread = ReturnType<typeof failedThread>;

export interface FailedStart {
  /** The thread as its row and its panel's header show it. */
  thread: FailedThread;
  /** Why it did not start: the host's words, as a window session's `statusDetail` says them. */
  reason: string;
  /** What its panel shows as the run's: the error, as a window session's failed start shows it. */
  events: RuntimeEvent[];
}

export class FailedStarts implements vscode.Disposable {
  /** Oldest first. */
  readonly #starts = new Map<string, FailedStart>();
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.#changed.event;

  /**
   * Keeps `thread` as failed when `err` is the host's `start_failed` (its id: its panel shows why); rethrows any
   * other error (a refusal: nothing started, the caller says so).
   */
  keep(err: unknown, thread: FailedThread): string {
    if (refusalCode(err) !== "start_failed") throw err;
    const reason = errorMessage(err);
    this.#starts.delete(thread.threadId);
    this.#starts.set(thread.threadId, { thread, reason, events: [{ type: "error", message: reason }] });
    for (const id of this.#starts.keys()) if (this.#starts.size > MAX_CLOSED) this.#starts.delete(id);
    this.#changed.fire();
    return thread.threadId;
  }

  get(threadId: string): FailedStart | undefined {
    return this.#starts.get(threadId);
  }

  all(): FailedStart[] {
    return [...this.#starts.values()];
  }

  /** Forgets it (Stop session; a new run of the thread): false when it was not kept. */
  delete(threadId: string): boolean {
    const had = this.#starts.delete(threadId);
    if (had) this.#changed.fire();
    return had;
  }

  dispose(): void {
    this.#starts.clear();
    this.#changed.dispose();
  }
}

/** A thread's row and header while it has no file (a new thread), or from its metadata (a stored one). */
export function failedThread(threadId: string, agent: { id: string; name: string }, cwd: string, title: string) {
  return {
    threadId,
    title: displayTitle(title.split("\n")[0], agent.name),
    agent: agent.name,
    agentId: agent.id,
    cwd,
    updatedAt: new Date().toISOString(),
    mode: "acp" as const,
    status: "failed" as const,
  };
}

/** `failedThread` of a stored thread. */
export const storedFailedThread = (threadId: string, m: ThreadMetadata): FailedThread =>
  failedThread(threadId, m.agent, m.cwd, m.title ?? "");
