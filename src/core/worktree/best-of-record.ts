/**
 * The record of a Best of N (#35): what a window needs to pick one up after a reload. Its prompt (the text, and
 * its context chips as a thread records them: never a file's text, an image's bytes or an environment value), the
 * repository and base, each candidate (its thread, agent, worktree), the check command, each candidate's agent end
 * and check result once known, and what the user did with it (applied, kept, discarded; the view closed). Pure
 * helpers here; best-of-records.ts keeps the file.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { AcpThreadsError } from "../errors";
import type { ContextRef, PromptPart } from "../model/context";
import type { WorktreeRef } from "../model/records";
import { pidAlive, processBoot } from "../platform/file-lock";
import { refOf } from "../prompt/blocks";
import type { BestOfProgress, ResumedCandidate } from "./best-of-progress";
import type { CandidateRun, CandidateSpec } from "./candidates";
import type { CheckResult } from "./check";

export const BEST_OF_RECORD_VERSION = 1;
/** How many records the file keeps (the oldest finished ones go first). */
export const BEST_OF_KEEP = 50;
/** How much of a check's output a record keeps (the view shows as much). */
export const RECORD_CHECK_TAIL = 2_000;

/** The window (its extension host's process) following a Best of N: another window leaves it alone while it lives. */
export interface RecordOwner {
  pid: number;
  host: string;
  /** The process's start (ms): a later process that got the same pid is not the owner. */
  boot: number;
  /** The thread host (#35: a detached Best of N): clients follow its record while it lives, never claim it. */
  role?: "host";
}

export interface RecordedCandidate extends CandidateSpec {
  threadId: string | null;
  worktree: WorktreeRef | null;
  /** The candidate's folder in its worktree (where its agent and its check run). */
  cwd: string | null;
  /** When its worktree was made (ms since the epoch): its duration's start. */
  startedAt?: number;
  /** How its agent's turn ended, once it did. */
  agent?: { ok: boolean; stopReason: string | null; error?: string; durationMs: number };
  /** Its check's result, once the check ran to its end (a check cut short is not recorded: it runs again). */
  check?: CheckResult;
  outcome?: "applied" | "kept" | "discarded";
}

export interface BestOfRecord {
  id: string;
  createdAt: string;
  /** Where the prompt was given (inside `repo`). */
  cwd: string;
  repo: string;
  base: string;
  prompt: string;
  context: ContextRef[];
  check?: string;
  candidates: RecordedCandidate[];
  owner?: RecordOwner | null;
  /** Started by `acp-threads run --detach` (none: by a window). */
  startedFrom?: "terminal";
  /** The user closed its compare view (a reload does not): it is not reopened. */
  closedAt?: string;
  /**
   * When the thread host finished it (every candidate's end and check recorded) and let it go: a client ranks it
   * from the record, running nothing.
   */
  finishedAt?: string;
}

export function newBestOfRecord(o: {
  cwd: string;
  repo: string;
  base: string;
  prompt: string;
  parts?: readonly PromptPart[];
  check?: string;
  candidates: readonly CandidateSpec[];
  owner?: RecordOwner;
  startedFrom?: "terminal";
}): BestOfRecord {
  return {
    id: randomBytes(6).toString("hex"),
    createdAt: new Date().toISOString(),
    cwd: o.cwd,
    repo: o.repo,
    base: o.base,
    prompt: o.prompt,
    context: (o.parts ?? []).flatMap((p) => (p.type === "context" ? [refOf(p.item)] : [])),
    ...(o.check ? { check: o.check } : {}),
    candidates: o.candidates.map((c) => ({ ...c, threadId: null, worktree: null, cwd: null })),
    ...(o.owner ? { owner: o.owner } : {}),
    ...(o.startedFrom ? { startedFrom: o.startedFrom } : {}),
  };
}

/** This process as a record's owner (`role`: the thread host's). */
export const ownerHere = (role?: "host"): RecordOwner => ({
  pid: process.pid,
  host: hostname(),
  boot: processBoot,
  ...(role ? { role } : {}),
});

/** Whether a live thread host owns the record (clients follow it, never claim it). */
export const hostOwned = (r: BestOfRecord): boolean => r.owner?.role === "host" && !ownerGone(r.owner);

/** Whether `a` and `b` name the same process. */
export const sameOwner = (a: RecordOwner | null | undefined, b: RecordOwner): boolean =>
  !!a && a.pid === b.pid && a.host === b.host && Math.abs(a.boot - b.boot) <= 1_000;

/** Whether `owner` is this process. */
export const ownedHere = (owner: RecordOwner | null | undefined): boolean => sameOwner(owner, ownerHere());

/** Whether the process that owned a record is gone (another machine's cannot be asked: it is taken as alive). */
export function ownerGone(owner: RecordOwner | null | undefined): boolean {
  if (!owner) return true;
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return !ownedHere(owner);
  return !pidAlive(owner.pid);
}

/** The agent end as a record keeps it. */
export const recordedAgent = (run: CandidateRun, durationMs: number): NonNullable<RecordedCandidate["agent"]> => ({
  ok: run.ok,
  stopReason: run.stopReason ?? null,
  ...(run.error ? { error: run.error } : {}),
  durationMs: Math.round(durationMs),
});

/** A check's result as a record keeps it (its output's end, as the view shows it). */
export const recordedCheck = (c: CheckResult): CheckResult => ({
  ...c,
  outputTail: c.outputTail.slice(-RECORD_CHECK_TAIL),
});

/**
 * What a Best of N's progress says that its record keeps (none: nothing): a candidate's worktree, its agent's end,
 * its check's result (a check cut short is not kept: it runs again). The window's compare view and the CLI's
 * `worktrees compare` write the same facts.
 */
export function progressEdit(e: BestOfProgress): ((c: RecordedCandidate) => void) | undefined {
  switch (e.type) {
    case "worktree":
      return (c) => {
        c.worktree = e.worktree.ref;
        c.cwd = e.worktree.cwd;
        c.startedAt = Date.now();
      };
    case "agent_done":
      return (c) => {
        c.threadId = e.run.threadId ?? c.threadId;
        c.agent = recordedAgent(e.run, e.durationMs);
      };
    case "check_done":
      return e.check.aborted ? undefined : (c) => void (c.check = recordedCheck(e.check));
    default:
      return undefined;
  }
}

/** A record's change to its candidate `label` (`BestOfRecords.update`'s edit; false: no such candidate). */
export const candidateEdit =
  (label: string, edit: (c: RecordedCandidate, r: BestOfRecord) => void) =>
  (r: BestOfRecord): boolean | void => {
    const c = r.candidates.find((x) => x.label === label);
    if (!c) return false;
    edit(c, r);
  };

/** A recorded candidate as `resumeBestOf` picks it up: its agent's end and its check's result when known. */
export function resumedCandidate(c: RecordedCandidate): ResumedCandidate {
  const { agentId, name, run, label } = c;
  return {
    spec: { agentId, name, run, label },
    threadId: c.threadId,
    worktree: c.worktree && c.cwd ? { ref: c.worktree, cwd: c.cwd } : null,
    ...(c.startedAt !== undefined ? { startedAt: c.startedAt } : {}),
    ...(c.agent
      ? {
          agent: {
            run: {
              threadId: c.threadId,
              ok: c.agent.ok,
              stopReason: c.agent.stopReason,
              ...(c.agent.error ? { error: c.agent.error } : {}),
            },
            durationMs: c.agent.durationMs,
          },
        }
      : {}),
    ...(c.check ? { check: c.check } : {}),
  };
}

/** Not yet decided: a candidate still runs, or one has a worktree the user has not applied, kept or discarded. */
export function isOpen(r: BestOfRecord): boolean {
  if (r.closedAt) return false;
  return r.candidates.some((c) => !c.agent || (c.worktree && !c.outcome));
}

/** At most `keep` records: the oldest finished ones go first, then (past the bound still) the oldest. */
export function pruneRecords(records: readonly BestOfRecord[], keep = BEST_OF_KEEP): BestOfRecord[] {
  const out = [...records].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (let i = 0; out.length > keep && i < out.length;)
    if (!isOpen(out[i]!)) out.splice(i, 1);
    else i++;
  return out.slice(Math.max(0, out.length - keep));
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The records of the file's text. A file that is not this shape, or was written by a newer version, is an error
 * (never "no records": a write over it would lose them).
 */
export function parseBestOfFile(text: string, file: string): BestOfRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new AcpThreadsError("corrupt", `${file} is not valid JSON (${String(err)}); move it away to start afresh`);
  }
  if (!isObj(parsed) || typeof parsed.version !== "number" || !Array.isArray(parsed.runs))
    throw new AcpThreadsError("corrupt", `${file} is not a Best of N record file; move it away to start afresh`);
  if (parsed.version > BEST_OF_RECORD_VERSION)
    throw new AcpThreadsError(
      "unsupported_version",
      `${file} was written by a newer version of ACP Threads (version ${parsed.version}); update to read it`,
    );
  for (const r of parsed.runs)
    if (!isObj(r) || typeof r.id !== "string" || typeof r.createdAt !== "string" || !Array.isArray(r.candidates))
      throw new AcpThreadsError("corrupt", `${file} holds a Best of N record that is not one; move it away`);
  return parsed.runs as BestOfRecord[];
}

export const bestOfFileText = (records: readonly BestOfRecord[]): string =>
  JSON.stringify({ version: BEST_OF_RECORD_VERSION, runs: records }, null, 1) + "\n";
