/**
 * The header's status of a thread the thread host runs, as a window session's is drawn (thread-panel.ts): the
 * running turn's start as `since` (its prompt's record: a reloaded window's timer shows the time the turn has run,
 * not 0:00), a run the host ended with an error as `failed` with the error as its detail, and whether its agent
 * runs in the OS sandbox (the host's row says so), as a window session's status says.
 */
import type { HostMessage } from "../../webview/thread/protocol";
import type { HostedStatus } from "./hosted-thread-view";

export interface HostedStatusSource {
  readonly status: HostedStatus;
  /** Epoch ms of the running turn's prompt; undefined between turns. */
  readonly since: number | undefined;
  /** Why the host's run ended (`ended.error`). */
  readonly failure: string | undefined;
  /** Its agent runs in the OS sandbox (the header says "sandboxed"). */
  readonly sandboxed?: boolean;
}

export type StatusPost = Extract<HostMessage, { type: "status" }>;

export function hostedStatusPost(h: HostedStatusSource): StatusPost {
  if (h.failure !== undefined) return { type: "status", status: "failed", detail: h.failure };
  return {
    type: "status",
    status: h.status,
    ...(h.since !== undefined ? { since: h.since } : {}),
    ...(h.sandboxed ? { sandboxed: true } : {}),
  };
}
