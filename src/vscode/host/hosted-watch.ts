/**
 * The watchdogs of the threads the thread host runs, for the ops strip of their panels (#35): read from the host's
 * status (its `watchdog` pushes make the link read it again), a change told per thread, and the strip's Retry and
 * Dismiss sent to the host (`retry`). thread-ops.ts shows them as it shows a window session's supervisor.
 */
import type * as vscode from "vscode";
import type { HostWatchdog } from "../../core/host/protocol";
import type { RetryStep } from "../../core/model/watchdog";

/** Where the watchdogs come from (hosted-threads.ts). */
export interface HostedWatchSource {
  watchdog(threadId: string): HostWatchdog | undefined;
  retry(threadId: string, step?: RetryStep, dismiss?: boolean): Promise<void>;
  rows(): { threadId: string }[];
  onDidChange: vscode.Event<void>;
}

export class HostedWatch implements vscode.Disposable {
  /** What each thread's strip was last told (as JSON), to tell only a change. */
  readonly #seen = new Map<string, string>();
  readonly #sub: vscode.Disposable;

  constructor(
    private readonly source: HostedWatchSource,
    changed: (threadId: string) => void,
  ) {
    this.#sub = source.onDidChange(() => {
      const ids = new Set([...this.#seen.keys(), ...source.rows().map((r) => r.threadId)]);
      for (const id of ids) {
        const now = JSON.stringify(source.watchdog(id) ?? null);
        if (now === (this.#seen.get(id) ?? "null")) continue;
        if (now === "null") this.#seen.delete(id);
        else this.#seen.set(id, now);
        changed(id);
      }
    });
  }

  of(threadId: string): HostWatchdog | undefined {
    return this.source.watchdog(threadId);
  }

  retry(threadId: string, step?: RetryStep, dismiss = false): Promise<void> {
    return this.source.retry(threadId, step, dismiss);
  }

  dispose(): void {
    this.#sub.dispose();
  }
}
