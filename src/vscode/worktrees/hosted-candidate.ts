/**
 * A Best of N candidate the thread host runs (`acpThreads.host.runSessions: host`, #35), so a window reload does not
 * end it: the window made its worktree (core/worktree/best-of.ts owns the algorithm and calls this as its
 * `runCandidate`), the host runs the agent there with the panel's prompt as its first prompt, and the compare view
 * follows it. Its card's thread is set once the host opened it; this window attaches to it, so the agent's
 * permission requests come to this window's broker (the card's "waits for you", the panel, the notification);
 * the turn's end is the host's `turn_ended` (or its status saying the run waits idle or ended, for a turn that
 * ended while this window was not connected); a stopped Best of N cancels the turn through the host. A window going
 * away (a reload) lets go of it without a cancel: a reloaded window follows it again (best-of-resume.ts).
 */
import type * as vscode from "vscode";
import type { ThreadRecord } from "../../core/model/records";
import type { CandidateRun } from "../../core/worktree/ranking";
import type { Hub } from "../hub";
import { startCandidateInHost, type HostCandidate } from "../host/host-run";
import type { HostedThreads } from "../host/hosted-threads";
import type { HostedThreadView } from "../host/hosted-thread-view";
import { followAsks } from "./candidate-asks";
import type { CompareView } from "./compare-view";

interface TurnEnd {
  stopReason?: string | null;
  /** Why the host's run ended with an error. */
  failure?: string;
}

/** Why a Best of N stops following its candidates when the window goes (a reload): the host's turns run on. */
export const DETACHED = "the window closed";

export async function runHostedCandidate(
  hub: Hub,
  view: CompareView,
  label: string,
  c: HostCandidate,
  signal: AbortSignal,
  onThread?: (threadId: string) => void,
): Promise<CandidateRun> {
  const threadId = await startCandidateInHost(hub, c, hub.composer.sources());
  onThread?.(threadId);
  return await followHostedCandidate(hub, view, label, threadId, signal);
}

/**
 * Follows a hosted candidate to its turn's end (its card's thread set, its questions asked here). A stopped Best of
 * N cancels the turn; one the window let go of (`DETACHED`, a reload) leaves it running and resolves.
 */
export async function followHostedCandidate(
  hub: Hub,
  view: CompareView,
  label: string,
  threadId: string,
  signal: AbortSignal,
): Promise<CandidateRun> {
  const cancel = () => {
    if (signal.reason !== DETACHED) void hub.hosted.cancel(threadId).catch(() => undefined);
  };
  // stopped while the host started it (the compare view closed): its abort came before this listened for it
  if (signal.aborted) cancel();
  signal.addEventListener("abort", cancel, { once: true });
  const row = view.row(label)!;
  row.threadId = threadId;
  if (!signal.aborted) view.update(); // a closed view takes no update
  const followed = hub.hosted.open(threadId); // attached: its questions are asked here
  const waited = followAsks(hub, view, row);
  let end: TurnEnd;
  let waitedMs: number;
  try {
    end = await turnEnded(hub.hosted, threadId, followed?.view, signal);
  } finally {
    waitedMs = waited.stop();
    signal.removeEventListener("abort", cancel);
    followed?.release.dispose();
  }
  if (end.failure === undefined) end = await withTurnError(hub, threadId, end);
  return {
    threadId,
    ok: end.failure === undefined,
    ...(end.stopReason !== undefined ? { stopReason: end.stopReason } : {}),
    waitedMs,
    ...(end.failure !== undefined ? { error: end.failure } : {}),
  };
}

/**
 * A turn the agent answered with an error fails the candidate, as a window session's failed turn does (the host's
 * run stays open after it, so no `ended` says so): its stop reason (read from the thread when the turn ended before
 * this window followed it) and the error it recorded.
 */
async function withTurnError(hub: Hub, threadId: string, end: TurnEnd): Promise<TurnEnd> {
  if (end.stopReason !== undefined && end.stopReason !== "error") return end;
  const records = (await hub.threads.readAsync(threadId).catch(() => undefined))?.records ?? [];
  const last = <K extends ThreadRecord["kind"]>(kind: K) =>
    records.findLast((r): r is Extract<ThreadRecord, { kind: K }> => r.kind === kind);
  const stopReason = end.stopReason ?? last("turn_end")?.stopReason;
  if (stopReason !== "error") return stopReason === undefined ? end : { stopReason };
  return { stopReason, failure: last("error")?.message ?? "the agent's turn ended with an error" };
}

/** Resolves once the host's run on the thread ended its turn (it waits idle for the next prompt) or ended. */
function turnEnded(
  hosted: HostedThreads,
  threadId: string,
  view: HostedThreadView | undefined,
  signal: AbortSignal,
): Promise<TurnEnd> {
  return new Promise<TurnEnd>((resolve) => {
    const subs: vscode.Disposable[] = [];
    let settled = false;
    const done = (end: TurnEnd) => {
      if (settled) return;
      settled = true;
      for (const s of subs) s.dispose();
      resolve(end);
    };
    // A turn that ended (or a run that ended) while this window was not connected shows in the sessions read on
    // connecting. The link's sessions are never older than the events heard (the host pushes each row before its
    // events); a row pushed live is followed by its turn_ended or ended, which says more (the stop reason, the
    // error): only the sessions read whole settle it.
    const viewEnded = (): boolean => {
      if (!view?.ended) return false;
      done(view.failure !== undefined ? { failure: view.failure } : {});
      return true;
    };
    const look = () => {
      const link = hosted.linkOf(threadId);
      if (viewEnded() || !link.synced) return; // looked at again once the sessions are read
      const s = link.session(threadId);
      if (!s || s.state === "idle") done({});
    };
    subs.push(
      hosted.onPush((m) => {
        if (m.t !== "event" || m.event.threadId !== threadId) return;
        if (m.event.kind === "turn_ended") done({ stopReason: m.event.stopReason });
        else if (m.event.kind === "ended") done(m.event.error !== undefined ? { failure: m.event.error } : {});
      }),
      hosted.link.onDidSync(look),
      ...(hosted.own ? [hosted.own.onDidSync(look)] : []),
      ...(view ? [view.onStatus(viewEnded)] : []),
    );
    // let go of (a reload): followed no more, its turn runs on in the host
    const detached = () => {
      if (signal.reason === DETACHED) done({ failure: DETACHED });
    };
    signal.addEventListener("abort", detached, { once: true });
    subs.push({ dispose: () => signal.removeEventListener("abort", detached) });
    detached();
    look();
  });
}
