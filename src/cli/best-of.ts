/**
 * `acp-threads run --agent A --agent B [--runs N] --worktrees [--check CMD] PROMPT...` (#25 best of N): every
 * candidate at once, each a real thread (its ledger, worktree metadata, usage) in a fresh worktree of the same
 * base commit, run as a single run is (run-in-process.ts); progress goes to stderr, prefixed with the
 * candidate's label; then the comparison (a table, or JSON with `--format json`) and the commands to apply one
 * and discard the others.
 * Permissions: every candidate runs under the `--permission` policy, which never asks (a request it does not
 * allow is refused, and the candidate's summary says how many were). Elicitation never asks on the terminal
 * either (several candidates would ask at once on one TTY): `ask` is `decline` here, `defaults` stays.
 */
import { Writable } from "node:stream";
import { errorMessage } from "../core/errors";
import { EditLedger } from "../core/ledger/edit-ledger";
import type { Logger } from "../core/log";
import type { ContextItem } from "../core/model/context";
import type { ThreadStore } from "../core/store/thread-store";
import { bestOfBase, runBestOf, type BestOfProgress } from "../core/worktree/best-of";
import {
  candidateJson,
  leaderOf,
  rankCandidates,
  type CandidateRun,
  type CandidateSpec,
  type CandidateSummary,
} from "../core/worktree/ranking";
import type { RetryMode } from "../core/model/watchdog";
import { cliElicitor, type ElicitationMode } from "./elicitation-prompt";
import { formatDuration } from "./exec/context";
import { EXIT, type CliIO } from "./io";
import type { RunSummary, TurnOutput } from "./output/turn-output";
import { runInProcess } from "./run-in-process";
import { writeJson } from "./threads/common";
import { compareTable, describeCheck } from "./worktrees/compare";
import type { SandboxSettings } from "../core/model/sandbox";

export interface BestOfCliOptions {
  io: CliIO;
  store: ThreadStore;
  logger: Logger;
  candidates: CandidateSpec[];
  prompts: string[];
  context?: ContextItem[];
  /** The folder the prompt is for (`--cwd`, resolved). */
  cwd: string;
  check?: string;
  checkTimeoutMs: number;
  concurrency?: number;
  permission: "approve-all" | "approve-reads" | "deny-all";
  elicitation: ElicitationMode;
  env: Record<string, string>;
  authMethodId?: string;
  timeoutMs?: number;
  stallMs: number;
  retry: RetryMode | "off";
  json: boolean;
  /** Every candidate's agent runs in the OS sandbox with these settings; none: unsandboxed. */
  sandbox?: SandboxSettings;
}

/** Writes each line to `out` with `prefix` in front (a candidate's notes among the others'). */
function prefixed(out: NodeJS.WritableStream, prefix: string): Writable {
  let partial = "";
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) out.write(`${prefix}${line.replace(/^acp-threads(?: run)?: /, "")}\n`);
      done();
    },
    final(done) {
      if (partial) out.write(`${prefix}${partial}\n`);
      done();
    },
  });
}

/** A candidate's events: tool calls as they end and agent errors, as progress lines (the answer is in its thread). */
function progressOutput(err: NodeJS.WritableStream): TurnOutput {
  return {
    event(e) {
      if (e.type === "tool_call" && (e.toolCall.status === "completed" || e.toolCall.status === "failed"))
        err.write(`[${e.toolCall.kind}] ${e.toolCall.title || e.toolCall.toolCallId} (${e.toolCall.status})\n`);
      else if (e.type === "error") err.write(`agent error: ${e.message}\n`);
    },
    summary: () => undefined,
  };
}

const WHY: Partial<Record<number, string>> = {
  [EXIT.timeout]: "timed out (--timeout)",
  [EXIT.interrupted]: "interrupted",
  [EXIT.permissionDenied]: "a permission request was refused by the policy and the turn ended",
};

function candidateRun(s: RunSummary, policy: string): CandidateRun {
  const refused = s.permissions.filter((d) => d.decidedBy === "policy" && !d.optionKind?.startsWith("allow")).length;
  const ok = s.exitCode === EXIT.ok;
  return {
    threadId: s.threadId ?? null,
    ok,
    stopReason: s.stopReason,
    ...(ok ? {} : { error: s.error ?? WHY[s.exitCode] ?? `exit ${s.exitCode}` }),
    notes: refused
      ? [`${refused} permission request${refused === 1 ? " was" : "s were"} refused by --permission ${policy}`]
      : [],
  };
}

/** A best of N's progress as `acp-threads run: LABEL: …` lines (here, and in `worktrees compare`). */
export function progressNotes(say: (text: string) => void): (e: BestOfProgress) => void {
  let warned = false;
  return (e) => {
    const tag = e.type === "finished" ? e.summary.label : e.spec.label;
    const line = (text: string) => say(`${tag}: ${text}`);
    switch (e.type) {
      case "worktree":
        line(`worktree ${e.worktree.ref.path}`);
        if (!warned) for (const w of e.worktree.warnings) say(`note: ${w}`);
        warned = true;
        return;
      case "agent_done":
        line(
          e.run.ok
            ? `agent done (${e.run.stopReason ?? "?"}) in ${formatDuration(e.durationMs)}`
            : `failed after ${formatDuration(e.durationMs)}: ${e.run.error ?? "?"}`,
        );
        return;
      case "check_started":
        line(`check: ${e.command}`);
        return;
      case "check_done":
        line(`check ${describeCheck(e.check)} in ${formatDuration(e.check.durationMs)}`);
        return;
      default:
        return;
    }
  };
}

/** The ranked candidates as `run` prints them: the table, or (`json`) a JSON array, best first. */
export function printRanked(io: CliIO, results: readonly CandidateSummary[], json: boolean): void {
  const ranked = rankCandidates(results);
  const leader = leaderOf(ranked);
  if (json)
    writeJson(
      io,
      ranked.map((c, i) => ({ rank: i + 1, ...candidateJson(c), leader: i === 0 ? (leader?.kind ?? null) : null })),
    );
  else io.stdout.write(compareTable(ranked));
}

export async function runBestOfCli(o: BestOfCliOptions): Promise<number> {
  const { io } = o;
  const say = (text: string) => io.stderr.write(`acp-threads run: ${text}\n`);
  const { repo, base } = await bestOfBase(o.cwd); // outside git: a usage error before any agent starts
  const n = o.candidates.length;
  say(
    `${n} candidate${n === 1 ? "" : "s"} (${o.candidates.map((c) => c.label).join(", ")}) from ${repo} at ${base.slice(0, 10)}, each in a worktree of its own`,
  );
  const ledger = new EditLedger({ home: o.store.home, logger: o.logger });
  const elicitation = o.elicitation === "ask" ? "decline" : o.elicitation;
  let results;
  try {
    results = await runBestOf({
      cwd: o.cwd,
      candidates: o.candidates,
      check: o.check,
      checkTimeoutMs: o.checkTimeoutMs,
      checkEnv: o.env,
      concurrency: o.concurrency,
      signal: io.signal,
      readThread: (id) => o.store.read(id).records,
      onProgress: progressNotes(say),
      runCandidate: async (spec, made) => {
        const stderr = prefixed(io.stderr, `acp-threads run: ${spec.label}: `);
        try {
          const summary = await runInProcess({
            io: { ...io, stderr },
            store: o.store,
            logger: o.logger,
            output: progressOutput(stderr),
            prompts: o.prompts,
            context: o.context,
            agent: spec.agentId,
            cwd: o.cwd,
            preparedWorktree: { cwd: made.cwd, ref: made.ref },
            startedFrom: "automation",
            sandbox: o.sandbox,
            permission: o.permission,
            elicitor: cliElicitor(elicitation, { stdin: io.stdin, stderr, interactive: false }),
            env: o.env,
            authMethodId: o.authMethodId,
            timeoutMs: o.timeoutMs,
            wait: false,
            stallMs: o.stallMs,
            retry: o.retry,
            ledger,
          });
          return candidateRun(summary, o.permission);
        } finally {
          stderr.end();
        }
      },
    });
  } finally {
    await ledger.flush().catch((err) => o.logger.warn(`edit ledger: ${errorMessage(err)}`));
    ledger.dispose();
  }
  printRanked(io, results, o.json);
  if (io.signal.aborted) return EXIT.interrupted;
  return results.some((c) => c.status === "done") ? EXIT.ok : EXIT.error;
}
