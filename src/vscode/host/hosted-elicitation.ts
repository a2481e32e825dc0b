/**
 * The elicitations of a thread the thread host runs, as this window answers them (#35): each `elicitation` push is
 * asked with the window's own elicitation steps (elicitation-asker.ts), and the answer is sent as `elicited`. The
 * first answer from any client wins: when another client answered (or the agent withdrew it) the host says
 * `settled`, the open step closes and the status bar says who answered. An answer the host refuses (too late, or
 * not fitting) is shown as a warning.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { HostConnection } from "../../core/host/client";
import type { PendingElicitation } from "../../core/host/protocol";
import type { ElicitationAsker, ElicitationPrompt } from "../../core/model/elicitation";

export interface HostedElicitationDeps {
  threadId: string;
  /** The window's elicitation steps. */
  elicitor: ElicitationAsker;
  connection(): Promise<HostConnection | undefined>;
  /** Whether one is waiting changed (the panel's status). */
  changed(): void;
}

export class HostedElicitations {
  /** The elicitations asked here and not settled yet, by request id. */
  readonly #open = new Map<string, AbortController>();

  constructor(private readonly deps: HostedElicitationDeps) {}

  get waiting(): boolean {
    return this.#open.size > 0;
  }

  async ask(e: PendingElicitation): Promise<void> {
    if (this.#open.has(e.requestId)) return; // sent again on a reattach: already asked
    const abort = new AbortController();
    this.#open.set(e.requestId, abort);
    this.deps.changed();
    const answer = await this.deps.elicitor.ask(promptOf(e, abort.signal)).catch(() => undefined);
    if (abort.signal.aborted || !answer || !this.#open.delete(e.requestId)) return; // settled elsewhere
    this.deps.changed();
    const c = await this.deps.connection();
    await c
      ?.request({ t: "elicited", threadId: this.deps.threadId, requestId: e.requestId, answer })
      .catch((err: unknown) => void vscode.window.showWarningMessage(`ACP Threads: ${errorMessage(err)}`));
  }

  /** The host settled `requestId` (another client answered, or it was withdrawn): its open step closes. */
  settled(requestId: string, by: string): void {
    const abort = this.#open.get(requestId);
    if (!abort) return;
    this.#open.delete(requestId);
    abort.abort();
    vscode.window.setStatusBarMessage(`ACP Threads: the agent's question was answered by ${by}`, 5000);
    this.deps.changed();
  }

  dispose(): void {
    for (const abort of this.#open.values()) abort.abort();
    this.#open.clear();
  }
}

function promptOf(e: PendingElicitation, signal: AbortSignal): ElicitationPrompt {
  const base = { agentId: "", message: e.message, signal, ...(e.toolCallId ? { toolCallId: e.toolCallId } : {}) };
  return e.mode === "url"
    ? { ...base, mode: "url", elicitationId: e.elicitationId, url: e.url, host: e.host }
    : { ...base, mode: "form", form: e.form };
}
