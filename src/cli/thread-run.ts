/**
 * The CLI's side of a run (`run`, `handoff`, Best of N's candidates: run-in-process.ts; the thread host's runs:
 * host-runner.ts): the summary `run` prints, its notes as stderr lines, and its ports (the sandbox prepared and what
 * it refused noted, the worktree's progress). The run itself is the engine's (core/host/hosted-runner.ts on
 * core/session/run-loop.ts).
 */
import { RUN_EXIT, type RunNote, type RunOutcome } from "../core/model/run";
import type { FrontEndPorts } from "../core/host/hosted-runner";
import { watchdogLine } from "./watchdog-line";
import type { CliIO } from "./io";
import type { RunSummary } from "./output/turn-output";
import { runSandbox, sandboxNotes } from "./sandbox-flags";
import type { ThreadRunOptions } from "./thread-run-options";
import { worktreeProgress } from "./worktree-start";

/** The thread and agent a run is for, as its front end's `prepare` hears them. */
type RunTarget = Parameters<NonNullable<FrontEndPorts["prepare"]>>[0];

/** The run's end as `run` prints it (its JSON keys in this order). */
export function summaryOf(r: RunOutcome): RunSummary {
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
): Required<Pick<FrontEndPorts, "prepare" | "onProgress" | "note" | "event" | "onSession">> {
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
