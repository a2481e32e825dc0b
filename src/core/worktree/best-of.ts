/**
 * Runs the candidates of a best-of-N (#25) at once, each in a fresh worktree of the same base commit: the
 * worktrees are made one after another (git's worktree bookkeeping is not made for parallel adds, and each takes
 * a fraction of a second), the sessions run together (all, or `concurrency` at a time), and each candidate's check
 * runs in its worktree as soon as its agent is done. One candidate failing (its agent crashing or failing to
 * start, an auth error, a check that times out) never costs the others: every candidate gets a summary. A
 * candidate that never opened a thread holds nothing, so its worktree is removed; the others keep theirs until
 * the user applies or discards them.
 *
 * A recorded Best of N (#35, best-of-record.ts) is finished by the process that owns its record (`finishRecord`:
 * the thread host for a detached one, `worktrees compare` or a window for one whose owner is gone), each fact
 * written into the record as it comes, so a client following the record sees it (`followRecord`, the same
 * progress read back from the record's changes).
 */
import { realpath } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError, errorMessage } from "../errors";
import type { ThreadRecord, WorktreeRef } from "../model/records";
import {
  candidateEdit,
  hostOwned,
  progressEdit,
  resumedCandidate,
  type BestOfRecord,
  type RecordedCandidate,
} from "./best-of-record";
import type { BestOfRecords } from "./best-of-records";
import { summarize, type CandidateRun, type CandidateSpec, type CandidateSummary } from "./candidates";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./ranking";
import { runCheck, type CheckResult } from "./check";
import type { BestOfProgress, ResumedCandidate } from "./best-of-progress";
import { createWorktree, type CreatedWorktree } from "./create";
import { discardWorktree } from "./discard";
import { repoTop, revParseOrNone } from "../platform/git";
import { worktreeState, type WorktreeState } from "./state";

export type { BestOfProgress, ResumedCandidate } from "./best-of-progress";

export interface BestOfOptions {
  /** The folder the prompt was given in (inside a git repository). */
  cwd: string;
  candidates: readonly CandidateSpec[];
  /** Runs one candidate's session in `worktree.cwd` (its thread records `worktree.ref`). */
  runCandidate: (spec: CandidateSpec, worktree: CreatedWorktree, signal: AbortSignal) => Promise<CandidateRun>;
  /** A shell command run in each worktree once its agent is done. */
  check?: string;
  checkTimeoutMs?: number;
  /** Extra environment for the check (never persisted). */
  checkEnv?: Record<string, string>;
  /** How many sessions run at once (default: all). */
  concurrency?: number;
  /** Stops everything: running sessions get the signal, checks are killed, waiting candidates do not start. */
  signal?: AbortSignal;
  /** The records of a candidate's thread (its cost; its answer and usage when `runCandidate` did not give them). */
  readThread?: (threadId: string) => readonly ThreadRecord[] | undefined | Promise<readonly ThreadRecord[] | undefined>;
  onProgress?: (e: BestOfProgress) => void;
}

export { DEFAULT_CHECK_TIMEOUT_MS } from "./ranking";

/** The repository and base commit every candidate starts from (checked before any agent starts). */
export async function bestOfBase(cwd: string): Promise<{ repo: string; base: string }> {
  const top = await repoTop(cwd);
  if (!top)
    throw new AcpThreadsError(
      "usage",
      `${cwd} is not in a git repository: best of N runs each candidate in a git worktree of its own`,
    );
  const repo = await realpath(top);
  const base = await revParseOrNone(repo, "HEAD");
  if (!base)
    throw new AcpThreadsError("usage", `the repository ${repo} has no commit yet; commit once before best of N`);
  return { repo, base };
}

/** One at a time, in call order (worktree creation). */
function serial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
}

export async function runBestOf(o: BestOfOptions): Promise<CandidateSummary[]> {
  if (!o.candidates.length) throw new AcpThreadsError("usage", "best of N needs at least one candidate");
  const { base } = await bestOfBase(o.cwd);
  const signal = o.signal ?? new AbortController().signal;
  const creating = serial();
  const emit = emitter(o.onProgress);

  const one = async (spec: CandidateSpec): Promise<CandidateSummary> => {
    const t0 = performance.now();
    let made: CreatedWorktree | undefined;
    let run: CandidateRun;
    const stopped = () => {
      if (signal.aborted) throw new AcpThreadsError("interrupted", "stopped before it started");
    };
    try {
      stopped();
      made = await creating(() => createWorktree(o.cwd, { base }));
      emit({ type: "worktree", spec, worktree: made });
      emit({ type: "started", spec });
      // stopped while its worktree was made (the compare view closed): no session starts, its worktree goes
      stopped();
      run = await o.runCandidate(spec, made, signal);
    } catch (err) {
      run = { threadId: null, ok: false, error: errorMessage(err) };
    }
    // the agent's own time: waiting for the person to answer a permission prompt is not the agent being slow
    const durationMs = Math.max(0, performance.now() - t0 - (run.waitedMs ?? 0));
    return await finishCandidate(o, signal, emit, { spec, worktree: made ?? null, run, durationMs });
  };

  const limit = Math.max(1, Math.min(o.concurrency ?? o.candidates.length, o.candidates.length));
  const results: CandidateSummary[] = new Array(o.candidates.length);
  let next = 0;
  const worker = async () => {
    while (next < o.candidates.length) {
      const i = next++;
      results[i] = await one(o.candidates[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

type Emit = (e: BestOfProgress) => void;

function emitter(onProgress: ((e: BestOfProgress) => void) | undefined): Emit {
  return (e) => {
    try {
      onProgress?.(e);
    } catch {
      // a progress listener never stops a candidate
    }
  };
}

type FinishOptions = Pick<BestOfOptions, "check" | "checkTimeoutMs" | "checkEnv" | "readThread">;

/**
 * A candidate whose agent is done: a worktree no thread holds is removed; the others' state is read, the check
 * runs (unless its result is known already), and its summary is made.
 */
async function finishCandidate(
  o: FinishOptions,
  signal: AbortSignal,
  emit: Emit,
  c: {
    spec: CandidateSpec;
    worktree: { ref: WorktreeRef; cwd: string } | null;
    run: CandidateRun;
    durationMs: number;
    check?: CheckResult;
  },
): Promise<CandidateSummary> {
  const { spec, run, durationMs } = c;
  emit({ type: "agent_done", spec, run, durationMs });
  let ref: WorktreeRef | null = c.worktree?.ref ?? null;
  if (c.worktree && !run.threadId) {
    // no thread holds this worktree: nothing in it is anyone's work
    await discardWorktree(c.worktree.ref).catch(() => undefined);
    ref = null;
  }
  let state: WorktreeState | undefined;
  let check = c.check;
  let unread: string | undefined;
  if (ref) {
    try {
      state = await worktreeState(ref);
    } catch (err) {
      unread = `its worktree could not be read (${errorMessage(err)})`;
    }
  }
  if (!check && o.check && !signal.aborted && state?.exists) {
    emit({ type: "check_started", spec, command: o.check });
    check = await runCheck(c.worktree!.cwd, o.check, {
      timeoutMs: o.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      signal,
      env: o.checkEnv,
    });
    emit({ type: "check_done", spec, check });
  } else if (!check && o.check && !signal.aborted && (run.ok || unread)) {
    // a configured check that did not run is said (a failed agent's own error says why it has no worktree)
    const where = ref ? `its worktree ${ref.path} is gone` : "it has no worktree";
    unread = `${unread ?? where}, so its check did not run`;
  }
  let records: readonly ThreadRecord[] | undefined;
  if (run.threadId)
    try {
      records = await o.readThread?.(run.threadId);
    } catch {
      // an unreadable thread leaves the answer empty; its summary still says what changed
    }
  const summary = summarize(spec, {
    run: unread ? failedBy(run, unread) : run,
    worktree: ref,
    state,
    check,
    durationMs,
    records,
  });
  emit({ type: "finished", summary });
  return summary;
}

/**
 * A candidate whose worktree could not be read, or whose configured check did not run: it fails, saying why (what
 * it changed and whether its check passes are not known; summed up as "done" it would rank as a finished one).
 */
function failedBy(run: CandidateRun, why: string): CandidateRun {
  return { ...run, ok: false, error: run.error ? `${run.error}; ${why}` : why };
}

/** A followed candidate's end; `endedAt` (ms since the epoch): when its turn ended, if that was before now. */
export type FollowedRun = CandidateRun & { endedAt?: number };

/**
 * How a thread's last turn ended, read from its records: a candidate whose run is gone (its host stopped, or it
 * ended while nobody followed it), with when it ended (its duration is not the time until someone looked).
 */
export function endedRun(threadId: string, records: readonly ThreadRecord[]): FollowedRun {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (r.kind === "turn_end") {
      const at = Date.parse(r.ts);
      return { threadId, ok: true, stopReason: r.stopReason, ...(Number.isFinite(at) ? { endedAt: at } : {}) };
    }
    if (r.kind === "user_message") break;
  }
  return { threadId, ok: false, error: "its run ended, with the thread host, before its turn did" };
}

/**
 * How a followed candidate's run ended: its thread's last turn (`endedRun`), unless its run in the thread host
 * ended with an error (`ended`: the host's `ended` event, when one was heard).
 */
export function followedEnd(
  threadId: string,
  records: readonly ThreadRecord[],
  ended?: { exitCode: number; error?: string; at: string },
): FollowedRun {
  if (!ended || ended.exitCode === 0) return endedRun(threadId, records);
  const error = ended.error ?? `its run ended with exit ${ended.exitCode}`;
  return { threadId, ok: false, error, endedAt: Date.parse(ended.at) };
}

export interface ResumeOptions extends FinishOptions {
  candidates: readonly ResumedCandidate[];
  /** Follows a candidate whose agent has not ended (as far as the record knows) to its turn's end. */
  follow: (c: ResumedCandidate & { threadId: string }, signal: AbortSignal) => Promise<FollowedRun>;
  signal?: AbortSignal;
  onProgress?: (e: BestOfProgress) => void;
}

/**
 * Picks a Best of N up where its record left it (#35: a window reloaded while it ran): the candidates still
 * running are followed to their end, the checks not yet run to their end (never started, or cut short) run, and
 * every candidate gets its summary, as `runBestOf` gives them. A candidate that never got its thread failed (its
 * worktree, held by nothing, is removed).
 */
export async function resumeBestOf(o: ResumeOptions): Promise<CandidateSummary[]> {
  const signal = o.signal ?? new AbortController().signal;
  const emit = emitter(o.onProgress);
  return await Promise.all(
    o.candidates.map(async (c) => {
      let run: FollowedRun;
      let durationMs: number;
      if (c.agent) ({ run, durationMs } = c.agent);
      else {
        const threadId = c.threadId;
        if (threadId) {
          emit({ type: "started", spec: c.spec });
          try {
            run = await o.follow({ ...c, threadId }, signal);
          } catch (err) {
            run = { threadId, ok: false, error: errorMessage(err) };
          }
        } else run = { threadId: null, ok: false, error: "its agent had not started when the window closed" };
        const end = run.endedAt ?? Date.now();
        durationMs = Math.max(0, end - (c.startedAt ?? end) - (run.waitedMs ?? 0));
        const { endedAt: _e, ...ran } = run;
        run = ran;
      }
      return await finishCandidate(o, signal, emit, {
        spec: c.spec,
        worktree: c.worktree,
        run,
        durationMs,
        ...(c.check ? { check: c.check } : {}),
      });
    }),
  );
}

/** A recorded Best of N finished by the process that owns its record: the same resume, each fact recorded. */
export interface FinishRecordOptions extends Pick<ResumeOptions, "readThread" | "follow" | "checkTimeoutMs"> {
  records: BestOfRecords;
  /** The record as its owner claimed it. */
  record: BestOfRecord;
  /** Stops it: what it cut short is not an end, and the record stays as it was for the next owner. */
  signal: AbortSignal;
  onProgress?: (e: BestOfProgress) => void;
}

/** Finishes the record's Best of N; resolves with every candidate's summary once every fact is written. */
export async function finishRecord(o: FinishRecordOptions): Promise<CandidateSummary[]> {
  const { records, record, signal } = o;
  let writes = Promise.resolve();
  const summaries = await resumeBestOf({
    candidates: record.candidates.map(resumedCandidate),
    ...(record.check ? { check: record.check } : {}),
    ...(o.checkTimeoutMs !== undefined ? { checkTimeoutMs: o.checkTimeoutMs } : {}),
    signal,
    ...(o.readThread ? { readThread: o.readThread } : {}),
    follow: o.follow,
    onProgress: (e) => {
      o.onProgress?.(e);
      const edit = signal.aborted ? undefined : progressEdit(e);
      const label = e.type === "finished" ? e.summary.label : e.spec.label;
      if (edit) writes = writes.then(() => records.update(record.id, candidateEdit(label, edit)).then(() => {}));
    },
  });
  await writes;
  return summaries;
}

/**
 * The progress a record's change (`before` → `after`) shows, as its owner reported it: a candidate's agent end
 * (then its check's start, when it gets one: the owner starts it at once) and its check's result.
 */
export function recordProgress(before: BestOfRecord | undefined, after: BestOfRecord): BestOfProgress[] {
  const out: BestOfProgress[] = [];
  for (const c of after.candidates) {
    const was: RecordedCandidate | undefined = before?.candidates.find((x) => x.label === c.label);
    const { spec, agent } = resumedCandidate(c);
    if (agent && !was?.agent) {
      out.push({ type: "agent_done", spec, run: agent.run, durationMs: agent.durationMs });
      if (after.check && c.worktree && c.threadId) out.push({ type: "check_started", spec, command: after.check });
    }
    if (c.check && !was?.check) out.push({ type: "check_done", spec, check: c.check });
  }
  return out;
}

/** How often a followed record is read again while the thread host finishes it. */
export const FOLLOW_POLL_MS = 250;

/**
 * Follows a record while a live thread host owns it (`hostOwned`): its progress as it is recorded (`recordProgress`,
 * the facts already recorded first), until the host lets it go (`finishedAt`: ranked) or is gone (a client picks it
 * up), or `signal` stops it. Resolves with the record as last read.
 */
export async function followRecord(
  records: BestOfRecords,
  record: BestOfRecord,
  o: { signal: AbortSignal; onProgress: (e: BestOfProgress) => void },
): Promise<BestOfRecord> {
  let before: BestOfRecord | undefined;
  for (let r = record; ;) {
    for (const e of recordProgress(before, r)) o.onProgress(e);
    before = r;
    if (!hostOwned(r) || o.signal.aborted) return r;
    await sleep(FOLLOW_POLL_MS, undefined, { signal: o.signal }).catch(() => undefined);
    const next = await records.get(r.id);
    if (!next) throw new AcpThreadsError("not_found", `Best of N ${r.id} is no longer recorded`);
    r = next;
  }
}
