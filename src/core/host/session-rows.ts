/**
 * Each hosted session's row as the host's status lists it (`HostSessionInfo`: its state, its question, its
 * watchdog, its login, how many clients follow it), and the `session` push that tells the event listeners a row
 * changed (#35). The host sends a thread's row before anything it announces of that thread (server.ts): on the one
 * ordered socket, a client that keeps the rows never holds one older than an event it has heard (a `turn_ended`
 * finds its row idle already, a `needs_input` its question). Only a row that differs from the last one sent goes:
 * records, however many, send none.
 */
import type { HostPush, HostSessionInfo } from "./protocol";
import type { HostedThread } from "./hosted-thread";

export function sessionRow(t: HostedThread): HostSessionInfo {
  return {
    threadId: t.threadId,
    state: t.state,
    clients: t.clients.size,
    ...(t.pending ? { pending: t.pending } : {}),
    ...(t.watchdog ? { watchdog: t.watchdog } : {}),
    ...(t.opts.once ? { once: true } : {}),
    ...(t.opts.agentId ? { agentId: t.opts.agentId } : {}),
    ...(t.opts.agentName ? { agentName: t.opts.agentName } : {}),
    ...(t.opts.autoRetry ? { autoRetry: true } : {}),
    ...(t.authStatus ? { authStatus: t.authStatus } : {}),
    ...(t.opts.sandboxed ? { sandboxed: true } : {}),
  };
}

export class SessionRows {
  /** Each thread's row as last sent (its JSON). */
  readonly #sent = new Map<string, string>();

  constructor(private readonly tell: (msg: Extract<HostPush, { t: "session" }>) => void) {}

  /** Tells the thread's row when it changed since it was last told. */
  changed(t: HostedThread): void {
    const session = sessionRow(t);
    const json = JSON.stringify(session);
    if (this.#sent.get(t.threadId) === json) return;
    this.#sent.set(t.threadId, json);
    this.tell({ t: "session", session });
  }

  /** The thread is no longer held (its `ended` row was told). */
  forget(threadId: string): void {
    this.#sent.delete(threadId);
  }
}
