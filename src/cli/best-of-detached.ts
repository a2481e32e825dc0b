/**
 * `acp-threads run --agent A --agent B [--runs N] --worktrees [--check CMD] --detach PROMPT...` (#35): best of N
 * in the thread host. This process makes every candidate's worktree of the same base commit (as `run` does without
 * --detach), hands each candidate to the host as a run of its own in its worktree (`DetachedRun.preparedWorktree`,
 * the window's hosted Best of N path), records the Best of N in the data home as the window does
 * (core/worktree/best-of-record.ts: the editor's compare view picks it up, and `acp-threads worktrees compare`), prints
 * the candidates' threads and returns while they run.
 * Once every candidate is handed over, the Best of N itself is (`best_of`, core/host/host-best-of.ts): the host owns
 * the record, follows the candidates, runs the check the user typed (`--check`, `--check-timeout`) in each worktree
 * and ranks them, with nobody watching; `worktrees compare` and a window on the repository follow the record. A
 * host that refuses it (or is gone) leaves it to them: they pick it up and finish it, as before.
 * Failures: the host unreachable is an error before anything is made; a candidate the host refuses (its agent is not
 * installed) fails alone, its worktree removed; the host gone, or Ctrl-C, while they are handed over: the worktrees
 * of the candidates not yet started are removed and the record says so.
 */
import { errorMessage } from "../core/errors";
import type { HostConnection } from "../core/host/client";
import type { DetachedRun } from "../core/host/protocol";
import type { ContextItem } from "../core/model/context";
import { homeLayout, resolveHome } from "../core/store/paths";
import { bestOfBase } from "../core/worktree/best-of";
import {
  candidateEdit,
  newBestOfRecord,
  ownerHere,
  progressEdit,
  recordedAgent,
  type RecordedCandidate,
  type RecordOwner,
} from "../core/worktree/best-of-record";
import { BestOfRecords } from "../core/worktree/best-of-records";
import type { CandidateSpec } from "../core/worktree/ranking";
import { createWorktree, type CreatedWorktree } from "../core/worktree/create";
import { discardWorktree } from "../core/worktree/discard";
import { contextToWire } from "../core/host/wire-context";
import { hostFor } from "./host-client";
import { EXIT, type CliIO } from "./io";

/** The run flags every candidate's run carries (its agent, worktree, title and first-prompt context are added). */
export type CandidateRunBase = Omit<DetachedRun, "agent" | "preparedWorktree" | "title" | "context" | "cwd">;

export interface DetachedBestOfOptions {
  io: CliIO;
  candidates: CandidateSpec[];
  /** The folder the prompt is for (`--cwd`, resolved). */
  cwd: string;
  context: ContextItem[];
  check?: string;
  checkTimeoutMs?: number;
  run: CandidateRunBase;
  json: boolean;
}

interface Started {
  label: string;
  threadId: string | null;
  error?: string;
}

export async function runBestOfDetached(o: DetachedBestOfOptions): Promise<number> {
  const { io } = o;
  const say = (text: string) => io.stderr.write(`acp-threads run: ${text}\n`);
  const { repo, base } = await bestOfBase(o.cwd); // outside git: a usage error before anything starts
  // the host first: when it cannot be reached, nothing was made (the host takes worktrees of the folders offered)
  const conn = (await hostFor(io, "run --detach", true, { fs: false, roots: [repo] }))!;
  try {
    const records = new BestOfRecords(homeLayout(resolveHome(io.env)).bestOfFile);
    const prompt = o.run.prompts.join("\n\n");
    const owner = ownerHere(); // this process until the host takes it (or, if it does not, until it returns)
    const record = newBestOfRecord({
      cwd: o.cwd,
      repo,
      base,
      prompt,
      parts: o.context.map((item) => ({ type: "context", item })),
      ...(o.check ? { check: o.check } : {}),
      candidates: o.candidates,
      owner,
      startedFrom: "terminal",
    });
    await records.add(record);
    const edit = (label: string, fn: (c: RecordedCandidate) => void) =>
      records.update(record.id, candidateEdit(label, fn));
    const n = o.candidates.length;
    say(
      `${n} candidate${n === 1 ? "" : "s"} (${o.candidates.map((c) => c.label).join(", ")}) from ${repo} at ${base.slice(0, 10)}, each in a worktree of its own, in the thread host`,
    );
    const made = await prepare(o, base, edit);
    const started = made ? await start(o, conn, made, prompt, edit) : [];
    if (io.signal.aborted || !made) {
      await letGo(records, record.id, made ?? [], started, "interrupted before it started");
      say("interrupted: the candidates not yet started were not started, their worktrees removed");
      printStarted(io, record.id, started, o.json);
      return EXIT.interrupted;
    }
    if (conn.closed) {
      await letGo(records, record.id, made, started, "the thread host stopped before it started");
      throw new Error("the thread host stopped while the candidates were handed to it");
    }
    printStarted(io, record.id, started, o.json);
    for (const s of started) if (s.error) say(`${s.label}: failed: ${s.error}`);
    if (!started.some((s) => s.threadId)) return EXIT.error;
    const handed = await handOver(o, conn, record.id, owner);
    const compare = `'acp-threads worktrees compare ${record.id}'`;
    say(
      handed
        ? `the candidates run in the thread host, which then ${o.check ? "runs the check and " : ""}ranks them; 'acp-threads attach THREAD' follows one, ${compare} waits for the ranking`
        : `the candidates run in the thread host; 'acp-threads attach THREAD' follows one, ${compare} waits for them${o.check ? ", runs the check" : ""} and compares them`,
    );
    return EXIT.ok;
  } finally {
    conn.close();
  }
}

/** The Best of N handed to the host (it ranks it); false, said: it did not take it (a client finishes it). */
async function handOver(o: DetachedBestOfOptions, conn: HostConnection, bestOf: string, from: RecordOwner) {
  try {
    const check = o.check ? { check: o.check } : {}; // as the record keeps it
    const timeout = o.checkTimeoutMs !== undefined ? { checkTimeoutMs: o.checkTimeoutMs } : {};
    await conn.request({ t: "best_of", bestOf, from, ...check, ...timeout });
    return true;
  } catch (err) {
    o.io.stderr.write(`acp-threads run: the thread host did not take the Best of N over: ${errorMessage(err)}\n`);
    return false;
  }
}

/** Every candidate's worktree, one after another (git's bookkeeping); undefined: stopped (Ctrl-C), all removed. */
async function prepare(
  o: DetachedBestOfOptions,
  base: string,
  edit: (label: string, fn: (c: RecordedCandidate) => void) => Promise<boolean>,
): Promise<CreatedWorktree[] | undefined> {
  const made: CreatedWorktree[] = [];
  try {
    for (const spec of o.candidates) {
      if (o.io.signal.aborted) break;
      const wt = await createWorktree(o.cwd, { base });
      made.push(wt);
      await edit(spec.label, progressEdit({ type: "worktree", spec, worktree: wt })!);
    }
  } catch (err) {
    await removeAll(made);
    throw err;
  }
  if (!o.io.signal.aborted) return made;
  await removeAll(made);
  return undefined;
}

const removeAll = (made: readonly CreatedWorktree[]) =>
  Promise.all(made.map((m) => discardWorktree(m.ref).catch(() => undefined)));

/**
 * Each candidate handed to the host, in order, until Ctrl-C or the host goes: its thread, or why the host refused
 * it (its worktree removed: no thread holds it).
 */
async function start(
  o: DetachedBestOfOptions,
  conn: HostConnection,
  made: readonly CreatedWorktree[],
  prompt: string,
  edit: (label: string, fn: (c: RecordedCandidate) => void) => Promise<boolean>,
): Promise<Started[]> {
  const context = o.context.length ? { context: contextToWire(o.context) } : {};
  const started: Started[] = [];
  for (const [i, spec] of o.candidates.entries()) {
    if (o.io.signal.aborted || conn.closed) break;
    const wt = made[i]!;
    const run: DetachedRun = {
      ...o.run,
      cwd: o.cwd,
      agent: spec.agentId,
      preparedWorktree: { ref: wt.ref, cwd: wt.cwd },
      title: `${spec.label}: ${prompt}`,
      ...context,
    };
    try {
      const r = await conn.request({ t: "run", run });
      const threadId = r.t === "started" ? r.threadId : null;
      if (!threadId) throw new Error(`the thread host answered ${r.t}`);
      started.push({ label: spec.label, threadId });
      await edit(spec.label, (c) => void (c.threadId = threadId));
    } catch (err) {
      if (conn.closed) break; // not its failure: the host went (the rest is let go of by the caller)
      const error = errorMessage(err);
      started.push({ label: spec.label, threadId: null, error });
      await discardWorktree(wt.ref).catch(() => undefined);
      await edit(spec.label, failedUnstarted(error));
    }
  }
  return started;
}

/** A candidate that never started, in the record: no worktree (it was removed), its agent failed with `error`. */
const failedUnstarted = (error: string) => (c: RecordedCandidate) => {
  c.worktree = null;
  c.cwd = null;
  c.agent = recordedAgent({ threadId: null, ok: false, error }, 0);
};

/**
 * Stopped before every candidate started: the ones not started lose their worktree (nothing holds it) and fail in
 * the record, `why`; the started ones run on in the host.
 */
async function letGo(
  records: BestOfRecords,
  id: string,
  made: readonly CreatedWorktree[],
  started: readonly Started[],
  why: string,
): Promise<void> {
  const done = new Set(started.map((s) => s.label));
  await removeAll(made.slice(started.length));
  await records
    .update(id, (r) => {
      for (const c of r.candidates) if (!done.has(c.label)) failedUnstarted(why)(c);
      if (!started.some((s) => s.threadId)) r.closedAt = new Date().toISOString();
    })
    .catch(() => undefined);
}

/** Text: one line per started candidate (its thread, its label); JSON: `{bestOf, threads: [{threadId, label}]}`. */
function printStarted(io: CliIO, bestOf: string, started: readonly Started[], json: boolean): void {
  // one line, as `run --detach` prints `{threadId}`
  if (json) {
    const threads = started.map((s) => ({
      threadId: s.threadId,
      label: s.label,
      ...(s.error ? { error: s.error } : {}),
    }));
    io.stdout.write(`${JSON.stringify({ bestOf, threads })}\n`);
  } else for (const s of started) if (s.threadId) io.stdout.write(`${s.threadId}  ${s.label}\n`);
}
