/**
 * The watchdogs of the threads the thread host runs, for the ops strip of their panels (#35): read from the host's
 * status (its `watchdog` pushes make the link read it again), a change told per thread, and the strip's Retry and
 * Dismiss sent to the host (`retry`). thread-ops.ts shows them as it shows a window session's supervisor, and offers
 * Stop session while a host holds the thread (a change of that is told too).
 */
import type * as vscode from "vscode";
import type { HostWatchdog } from "../../core/host/protocol";
import type { RetryStep } from "../../core/model/watchdog";

/** Where the watchdogs come from (hosted-threads.ts). */
export interface HostedWatchSource {
  watchdog(threadId: string): HostWatchdog | undefined;
  /** A host runs the thread (its panel offers Stop session, as a window session's does). */
  holds(threadId: string): boolean;
  /** Its watchdog climbs the retry ladder by itself. */
  autoRetry(threadId: string): boolean;
  retry(threadId: string, step?: RetryStep, dismiss?: boolean): Promise<void>;
  rows(): { threadId: string }[];
  onDidChange: vscode.Event<void>;
}

/** A thread's look when no host runs it and its watchdog has nothing to show. */
const NOTHING = JSON.stringify({ watchdog: null });

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
        const now = this.#look(id);
        if (now === (this.#seen.get(id) ?? NOTHING)) continue;
        if (now === NOTHING) this.#seen.delete(id);
        else this.#seen.set(id, now);
        changed(id);
      }
    });
  }

  /** What its strip shows of the host's run: its watchdog, and whether a host holds it (as JSON). */
  #look(threadId: string): string {
    const held = this.source.holds(threadId);
    return JSON.stringify({ watchdog: this.source.watchdog(threadId) ?? null, ...(held ? { held } : {}) });
  }

  of(threadId: string): HostWatchdog | undefined {
    return this.source.watchdog(threadId);
  }

  holds(threadId: string): boolean {
    return this.source.holds(threadId);
  }

  autoRetry(threadId: string): boolean {
    return this.source.autoRetry(threadId);
  }

  retry(threadId: string, step?: RetryStep, dismiss = false): Promise<void> {
    return this.source.retry(threadId, step, dismiss);
  }

  dispose(): void {
    this.#sub.dispose();
  }
}
