/**
 * The permission request a Best of N candidate waits on, in its compare card (#37 item 5): a window session's and a
 * hosted candidate's alike, both asked through this window's permission broker (a hosted thread's view asks it).
 */
import type { CandidateRow } from "../../webview/compare/protocol";
import type { Hub } from "../hub";
import type { CompareView } from "./compare-view";

/**
 * Shows the permission request a candidate waits on in its card ("waits for you", answerable there) and adds up
 * the time it waited, which is not the agent's duration. `stop` ends the following and returns the milliseconds.
 */
export function followAsks(hub: Hub, view: CompareView, row: CandidateRow): { stop(): number } {
  let waitedMs = 0;
  let since: number | undefined;
  const sync = () => {
    const pending = row.threadId ? hub.broker.pendingFor(row.threadId)[0] : undefined;
    if (pending && since === undefined) since = performance.now();
    if (!pending && since !== undefined) {
      waitedMs += performance.now() - since;
      since = undefined;
    }
    const asks = pending && { requestId: pending.requestId, title: pending.title, options: pending.options };
    if (asks?.requestId === row.asks?.requestId) return;
    row.asks = asks;
    if (!asks) delete row.asks;
    if (row.status === "working" || row.status === "asking") row.status = asks ? "asking" : "working";
    view.update();
  };
  const sub = hub.broker.onDidChange((threadId) => threadId === row.threadId && sync());
  sync();
  return {
    stop: () => {
      sub.dispose();
      if (since !== undefined) waitedMs += performance.now() - since;
      since = undefined;
      if (row.asks) delete row.asks;
      return Math.round(waitedMs);
    },
  };
}
