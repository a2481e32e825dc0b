/**
 * A thread the window's own thread host runs (window-host.ts; `window` mode under the switch of window-engine.ts),
 * drawn in the Sessions view as a window session's `live` row (#35 item 7): one look for the window's threads
 * whichever engine runs them. Its facts are read from what follows the run, no state of its own: the host's row
 * (its question, watchdog, login), the view a panel follows it with (its status, title, agent, the last turn's
 * error) and, for what no panel follows, the thread catalog's metadata.
 */
import { authStatusText } from "../../core/acp/auth-status";
import { handedOffFrom } from "../../core/handoff/lineage";
import type { RuntimeEvent } from "../../core/model/events";
import type { ThreadMetadata } from "../../core/model/metadata";
import type { LiveRow } from "../sessions-rows";
import { displayTitle } from "../thread-title";
import type { HostedThreads, OwnRun } from "./hosted-threads";
import type { HostedThreadView } from "./hosted-thread-view";

/** The longest a rename waits for its record to reach the view (it comes on the same connection as the reply). */
const TITLE_WAIT_MS = 5_000;

/**
 * The run of the window's own host that the `live` row of `threadId` draws: none while a window session of the
 * thread is open here (the row is that session's), or when the own host does not hold it.
 */
export function ownRunOf(
  hub: { live: { get(threadId: string): { isOpen: boolean } | undefined }; hosted?: Pick<HostedThreads, "ownRun"> },
  threadId: string,
): OwnRun | undefined {
  return hub.live.get(threadId)?.isOpen ? undefined : hub.hosted?.ownRun(threadId);
}

/** The error of the last turn in `events` (its prompt on), as a window session keeps it with `failed`. */
export function lastTurnError(events: readonly RuntimeEvent[]): string | undefined {
  const from = events.findLastIndex((e) => e.type === "user_text" && !e.steered);
  if (from < 0) return undefined;
  const err = events.slice(from).findLast((e) => e.type === "error");
  return err?.type === "error" ? err.message : undefined;
}

/**
 * The status a window session would have: the followed view's (a turn that ended with an error: `failed`), else
 * the host's row's (its question waiting, idle between turns, else working).
 */
function statusOf(run: OwnRun): { status: string; detail?: string } {
  const { row, view } = run;
  if (!view) return { status: row.pending ? "waiting_permission" : row.state === "idle" ? "idle" : "working" };
  const failed = view.status === "idle" ? lastTurnError(view.events) : undefined;
  return failed === undefined ? { status: view.status } : { status: "failed", detail: failed };
}

/** The `live` row of a run of the window's own host; `stored`: the thread catalog's metadata (no file read). */
export function ownLiveRow(run: OwnRun, stored: ThreadMetadata | undefined): LiveRow {
  const { row, view } = run;
  const agent = view?.agentName ?? row.agentName ?? stored?.agent.name ?? "";
  const title = view?.title !== undefined ? view.title : stored?.title;
  const from = stored && handedOffFrom(stored);
  return {
    title: displayTitle(title, agent || undefined),
    ...statusOf(run),
    agent,
    startedAt: run.since,
    ...(stored ? { cwd: stored.cwd } : {}),
    ...(stored?.agentSessionId ? { sessionId: stored.agentSessionId } : {}),
    ...(row.authStatus ? { login: authStatusText(row.authStatus) } : {}),
    ...(row.watchdog ? { watchdog: row.watchdog } : {}),
    ...(stored ? { handoff: { ...(from ? { from } : {}), to: stored.handedOffTo ?? [] } } : {}),
  };
}

/**
 * `write`s a rename of a thread the view follows and resolves once the view has a title record since (or the run
 * ended): the row draws the view's title, so the rename resolves with the row showing it, as a window session's
 * does. The record comes on the connection the host answers on, but the host's feed may read it from the file after
 * its answer: waited for, at most TITLE_WAIT_MS.
 */
export async function renamedInView(view: HostedThreadView, write: () => Promise<void>): Promise<void> {
  const subs: { dispose(): void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const seen = new Promise<void>((resolve) => {
    subs.push(
      view.onTitle(() => resolve()),
      view.onStatus((s) => s === "closed" && resolve()),
    );
    timer = setTimeout(resolve, TITLE_WAIT_MS);
  });
  try {
    await write();
    await seen;
  } finally {
    clearTimeout(timer);
    for (const s of subs) s.dispose();
  }
}
