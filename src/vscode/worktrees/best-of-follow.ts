/**
 * A compare view following a Best of N's progress (#25), started here (best-of-command.ts) or picked up after a
 * reload (best-of-resume.ts): its cards follow the core's progress, closing the view stops it, and, when the Best
 * of N has a record (its candidates run in the thread host, #35), each fact goes into the record: a candidate's
 * worktree and thread, its agent's end, its check's result (one cut short is not recorded: it runs again), what the
 * user did with it, and the view closed by the user. A window going away (a reload) lets go instead: the host's
 * turns run on and the record stays open.
 */
import { errorMessage } from "../../core/errors";
import type { BestOfProgress } from "../../core/worktree/best-of-progress";
import {
  candidateEdit,
  progressEdit,
  type BestOfRecord,
  type RecordedCandidate,
} from "../../core/worktree/best-of-record";
import { leaderOf, rankCandidates, type CandidateSpec, type CandidateSummary } from "../../core/worktree/ranking";
import type { CandidateRow } from "../../webview/compare/protocol";
import type { Hub } from "../hub";
import type { CompareView } from "./compare-view";
import { DETACHED } from "./hosted-candidate";

export function rowOf(spec: CandidateSpec): CandidateRow {
  return {
    label: spec.label,
    agent: spec.agentId,
    threadId: null,
    status: "waiting",
    answer: "",
    files: [],
    added: 0,
    removed: 0,
    tokens: null,
    costs: [],
    durationMs: null,
  };
}

function fill(row: CandidateRow, s: CandidateSummary): void {
  Object.assign(row, {
    threadId: s.threadId,
    status: s.status,
    answer: s.answer,
    files: s.files.map((f) => ({ path: f.path, added: f.added, removed: f.removed })),
    added: s.added,
    removed: s.removed,
    tokens: s.usage?.totalTokens ?? null,
    costs: s.costs,
    durationMs: s.durationMs,
    ...(s.check
      ? {
          check: {
            command: s.check.command,
            exitCode: s.check.exitCode,
            ...(s.check.timedOut ? { timedOut: true } : {}),
            outputTail: s.check.outputTail.slice(-2000),
          },
        }
      : {}),
    ...(s.error ? { error: s.error } : {}),
  });
}

export interface Following {
  /** Aborted when the view closes (the candidates are cancelled) or the window lets go (`DETACHED`). */
  signal: AbortSignal;
  onProgress(e: BestOfProgress): void;
  /** A candidate's thread, once its run opened one. */
  onThread(label: string, threadId: string): void;
  /** The ranked summaries, the view told the leader. */
  finish(summaries: CandidateSummary[]): CandidateSummary[];
  /** The Best of N stopped with an error. */
  failed(err: unknown): Error;
}

export function followBestOf(hub: Hub, view: CompareView, recordId?: string): Following {
  const stop = new AbortController();
  let detached = false;
  const write = (label: string, edit: (c: RecordedCandidate, r: BestOfRecord) => void) => {
    if (recordId) hub.bestOf.write(recordId, candidateEdit(label, edit));
  };
  const letGo = () => {
    detached = true;
    stop.abort(DETACHED);
  };
  const held = recordId ? hub.bestOf.follow(recordId, letGo) : undefined;
  view.onDidClose(() => {
    held?.dispose();
    if (detached) return;
    stop.abort();
    if (recordId) hub.bestOf.write(recordId, (r) => void (r.closedAt = new Date().toISOString()));
  });
  view.onDidDecide((row) => write(row.label, (c) => void (c.outcome = row.outcome)));

  const onProgress = (e: BestOfProgress) => {
    const label = e.type === "finished" ? e.summary.label : e.spec.label;
    // a run let go of (the window reloads) has not ended: its record stays open for the next window
    const edit = e.type === "agent_done" && e.run.error === DETACHED ? undefined : progressEdit(e);
    if (edit) write(label, edit);
    if (detached) return;
    const row = view.row(label);
    if (!row) return;
    if (e.type === "started") row.status = row.asks ? "asking" : "working";
    else if (e.type === "check_started") row.status = "checking";
    else if (e.type === "agent_done") row.durationMs = Math.round(e.durationMs);
    else if (e.type === "finished") fill(row, e.summary);
    view.update();
    hub.tree.refresh();
  };

  return {
    signal: stop.signal,
    onProgress,
    onThread: (label, threadId) => write(label, (c) => void (c.threadId = threadId)),
    finish: (summaries) => {
      const ranked = rankCandidates(summaries);
      const leader = leaderOf(ranked);
      if (!detached) view.update({ running: false, ...(leader ? { leader } : {}) });
      return ranked;
    },
    failed: (err) => {
      view.update({ running: false });
      return new Error(`Best of N stopped: ${errorMessage(err)}`, { cause: err });
    },
  };
}
