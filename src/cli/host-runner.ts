/**
 * The CLI's side of the thread host's runs (core/host/hosted-runner.ts runs them): how `run` names a run's thread
 * and agent (thread-target.ts), its sandbox and its notes (thread-run.ts `cliRunPorts`), its answer to an agent's
 * question while no client is attached (`--elicitation`, as without a terminal), its protocol log file and its exit
 * code. The host's stderr is its log: what `run` says on stderr goes there.
 */
import { PassThrough } from "node:stream";
import type { Logger } from "../core/log";
import { hostedRunner, type HostRunFrontEnd, type HostRunner } from "../core/host/hosted-runner";
import { RUN_EXIT } from "../core/model/run";
import { homeLayout } from "../core/store/paths";
import { cliElicitor } from "./elicitation-prompt";
import { writeProtocolLog } from "../core/store/protocol-log-file";
import { cliRunPorts } from "./thread-run";
import { target } from "./thread-target";

const noInput = new PassThrough();

/** The CLI's front end of the host's runs (durability "now": each record written at once, as `run` writes it). */
export function hostFront(home: string): HostRunFrontEnd {
  const stderr = process.stderr; // the host's log
  return {
    target: (run, store) =>
      target({
        io: { cwd: run.cwd, env: run.baseEnv ?? process.env, stderr },
        store,
        thread: run.thread,
        session: run.session,
        agent: run.agent,
        ...(run.agentLabel ? { agentLabel: run.agentLabel } : {}),
        cwd: run.runCwd,
        worktree: run.worktree,
        // checked by the host before this run started (run-roots.ts assertWorktreeOffered)
        ...(run.preparedWorktree ? { preparedWorktree: run.preparedWorktree } : {}),
      }),
    ports: (run, store) => ({
      ...cliRunPorts({
        io: { env: run.baseEnv ?? process.env, stderr },
        store,
        env: { ACP_THREADS_HOME: home, ...run.env },
        retry: run.retry,
        ...(run.sandbox ? { sandbox: run.sandbox } : {}),
      }),
      elicitor: cliElicitor(run.elicitation ?? "ask", { stdin: noInput, stderr, interactive: false }),
    }),
    ended: (run, outcome, traffic) => {
      writeProtocolLog(traffic, {
        file: run.protocolLog,
        failed: outcome.end === "error",
        agentId: outcome.agent.id,
        protocolLogsDir: homeLayout(home).protocolLogsDir,
        say: (line) => stderr.write(`acp-threads run: ${line}\n`),
      });
      return RUN_EXIT[outcome.end];
    },
  };
}

export function hostRunner(home: string, logger: Logger): HostRunner {
  return hostedRunner(home, logger, hostFront(home));
}
