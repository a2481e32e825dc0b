/**
 * `acp-threads run --thread ID | --session NAME PROMPT...`: more turns on a stored thread, from the CLI as from the
 * editor. The session is reopened through the same ladder (session/load → session/resume → new session seeded from
 * the thread). A thread another process is writing is followed read-only (its new records are printed) with the
 * holder named, and taken over once that process lets go (`--no-wait`: exit 6 instead). A named session is a
 * thread tagged `session:NAME` in this workspace, created on first use (acpx users know them). The watchdog
 * watches every turn (`--stall-timeout`, `--retry`).
 * The run itself is the engine's (core/session/run-loop.ts); this is the CLI's adapter: its target, review file,
 * sandbox flags, stderr notes, output and exit codes.
 */
import { RUN_EXIT, type RunNote, type RunOutcome } from "../core/model/run";
import { runLoop, type RunPorts, type RunTarget } from "../core/session/run-loop";
import { watchdogLine } from "./watchdog-line";
import type { CliIO } from "./io";
import { namedSessionTag } from "./named-sessions";
import type { RunSummary } from "./output/turn-output";
import { readReview, reviewTurnParts, type ReviewRequest } from "./review-file";
import { runSandbox, sandboxNotes } from "./sandbox-flags";
import type { ThreadRunOptions } from "./thread-run-options";
import { followWhileHeld, target } from "./thread-target";
import { worktreeProgress } from "./worktree-start";

/** The run's end as `run` prints it (its JSON keys in this order). */
function summaryOf(r: RunOutcome): RunSummary {
  return {
    type: "summary",
    stopReason: r.stopReason,
    sessionId: r.sessionId,
    turns: r.turns,
    toolCalls: r.toolCalls,
    permissions: r.permissions,
    agent: r.agent,
    exitCode: RUN_EXIT[r.end],
    threadId: r.threadId,
    ...(r.worktree ? { worktree: r.worktree } : {}),
    ...(r.origin !== undefined ? { origin: r.origin } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

/** The run's notes as `run`'s stderr lines (`auto`: the watchdog retries by itself). */
function noteLine(auto: boolean, n: RunNote): string | undefined {
  switch (n.type) {
    case "policy_mode":
      return `acp-threads: note: ${n.text}`;
    case "watchdog": {
      const line = watchdogLine(n.state, auto);
      return line && `acp-threads run: ${line}`;
    }
    case "prompt_not_sent":
      return `acp-threads run: a prompt was not sent: ${n.error}`;
    case "thread_not_recorded":
      return `acp-threads run: thread not recorded: ${n.error}`;
  }
}

/** What the CLI's ports of a run (`run`'s, and the thread host's: its stderr is its log) read. */
export type CliRunSide = Pick<ThreadRunOptions, "sandbox" | "env" | "store" | "retry"> & {
  io: Pick<CliIO, "env" | "stderr">;
};

/**
 * The CLI's ports of a run: its sandbox prepared (after `before`: a review file read) and the writes and hosts it
 * refused noted, the worktree's progress and the run's notes, on stderr.
 */
export function cliRunPorts(
  o: CliRunSide,
  before?: (t: RunTarget) => void,
): Required<Pick<RunPorts, "prepare" | "onProgress" | "note" | "event" | "onSession">> {
  let blocked: ReturnType<typeof sandboxNotes> | undefined;
  let sandbox: Awaited<ReturnType<typeof runSandbox>>;
  return {
    prepare: async (t, roots) => {
      before?.(t);
      return (sandbox = await runSandbox(o, t, roots));
    },
    onProgress: worktreeProgress(o.io, "run"),
    note: (n) => {
      const line = noteLine(o.retry === "auto", n);
      if (line) o.io.stderr.write(`${line}\n`);
    },
    event: (e) => {
      if (blocked && e.type === "tool_call") blocked(e.toolCall);
    },
    onSession: () => {
      if (sandbox) blocked = sandboxNotes(o.io, "run", sandbox);
    },
  };
}

export async function runOnThread(o: ThreadRunOptions): Promise<RunSummary> {
  let review: ReviewRequest | undefined;
  // a review file is read and checked against the thread's folder before any agent starts
  const cli = cliRunPorts(o, (t) => (review = o.review ? readReview(o.review, o.io.cwd, t.cwd) : undefined));
  const outcome = await runLoop({
    store: o.store,
    logger: o.logger,
    target: () => target(o),
    prompts: o.prompts,
    ...(o.context ? { context: o.context } : {}),
    ...(o.firstParts ? { firstParts: o.firstParts } : {}),
    ...(o.roots ? { roots: o.roots } : {}),
    ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
    ...(o.recordTraffic === false ? { recordTraffic: false } : {}),
    permission: o.permission,
    env: o.env,
    ...(o.baseEnv ? { baseEnv: o.baseEnv } : {}),
    authMethodId: o.authMethodId,
    signal: o.io.signal,
    timeoutMs: o.timeoutMs,
    stallMs: o.stallMs,
    retry: o.retry,
    ...(o.keepOpen ? { keepOpen: true } : {}),
    startedFrom: o.startedFrom ?? ((o.io.stdin as { isTTY?: boolean }).isTTY ? "cli" : "automation"),
    ...(o.origin ? { origin: o.origin } : {}),
    ...(o.title ? { title: o.title } : {}),
    ...(o.session ? { tags: [namedSessionTag(o.session)] } : {}),
    bestEffortRecording: !(o.session || o.origin),
    ...(o.ledger ? { ledger: o.ledger } : {}),
    asker: o.asker,
    elicitor: o.elicitor,
    files: o.files,
    terminalHost: o.terminalHost,
    ...(o.wait ? { whenFree: (id: string, stop: AbortSignal) => followWhileHeld(o, id, stop) } : {}),
    prepare: cli.prepare,
    firstTurn: () => review && ((caps, text, context) => reviewTurnParts(review!, caps, text, context)),
    onProgress: cli.onProgress,
    note: cli.note,
    event: (e, turn) => {
      o.output.event(e, turn);
      cli.event(e, turn);
    },
    onRuntime: o.onRuntime,
    onSession: (s, sources) => {
      o.onSession?.(s, sources);
      cli.onSession(s, sources);
    },
    onSupervisor: o.onSupervisor,
    onThread: o.onThread,
    onTraffic: o.onTraffic,
    nextPrompt: o.nextPrompt,
  });
  return summaryOf(outcome);
}
