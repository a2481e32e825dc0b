/**
 * The window's side of the runs of its own in-process thread host (#35 item 7, window-host.ts): the engine's runner
 * (core/host/hosted-runner.ts) with what is the window's, as cli/host-runner.ts gives the CLI's host. The run's
 * thread and agent through the window's engine requests (core/host/run-target.ts, as `run` finds them); its
 * sandbox from the settings the window put in the run (host-run-spec.ts), its refused hosts and the run's notes in
 * the extension's log; an agent's question while no panel follows the thread asked in the editor; its protocol
 * traffic written off the thread when the run asked for a file or failed (`acpThreads.recordTraffic` on); its exit
 * code as the CLI's host tells it.
 */
import type { Engine } from "../../core/engine/requests";
import { writeProtocolLogAsync } from "../../core/store/protocol-log-file";
import { hostedRunner, type HostRunFrontEnd, type HostRunner } from "../../core/host/hosted-runner";
import { runTarget } from "../../core/host/run-target";
import type { Logger } from "../../core/log";
import type { ElicitationAsker } from "../../core/model/elicitation";
import { RUN_EXIT, type RunNote } from "../../core/model/run";
import { background } from "../../core/util/unexpected";
import { editorElicitor } from "../elicitation-asker";
import { runSandboxPlan, sandboxBlockedNotices } from "../sandbox";
import { editorWorktreeProgress } from "../worktrees/start";

export interface WindowFrontDeps {
  home: string;
  /** The window's engine (hub.ts): its agents are found as the window's own sessions find them. */
  engine: Engine;
  logger: Logger;
  /** The data home's protocol logs (hub.layout): a failed run's traffic goes there. */
  protocolLogsDir: string;
  /** dist/walk-worker.js: its runs' ledgers walk off the thread, and nothing looks for the script here. */
  walkWorker?: string;
}

const declines: ElicitationAsker = { ask: () => Promise.resolve({ action: "decline" }) };

/** The run's note as a line of the extension's log (undefined: nothing to say). */
function noteLine(n: RunNote): string | undefined {
  if (n.type === "policy_mode") return n.text;
  if (n.type === "prompt_not_sent") return `a later prompt was not sent: ${n.error}`;
  if (n.type === "thread_not_recorded") return `the thread could not be written: ${n.error}`;
  return undefined; // the watchdog's state reaches the panels as the host's pushes
}

export function windowFront(d: WindowFrontDeps): HostRunFrontEnd {
  const { home, engine, logger } = d;
  return {
    tagsRuns: false, // its threads are this window's `window` mode's, not the user's thread host's
    tellsDecisions: true, // and their events say what the policy allowed, as a window session's do
    durability: "soon", // its records written on the thread pool, never on the extension host's thread
    ...(d.walkWorker ? { walkWorker: d.walkWorker } : {}),

    // a DetachedRun names its thread and agent with TargetAsk's fields (cwd, runCwd, thread, session, agent, …)
    target: (run) => runTarget(engine, run, editorWorktreeProgress(logger)),
    ports: (run) => {
      const said = (line: string) => logger.info(`window host run: ${line}`);
      let plan: Awaited<ReturnType<typeof runSandboxPlan>> | undefined;
      return {
        // the settings the window chose when it made the run (editorSandboxSettings); a machine that cannot
        // sandbox fails the run here, before any agent starts
        prepare: async (t, roots) => {
          if (!run.sandbox) return undefined;
          plan = await runSandboxPlan(run.sandbox, {
            roots: [t.cwd, ...roots],
            agentId: t.agent.id,
            env: { ...process.env, ...run.baseEnv, ...run.env },
            dataHome: home,
          });
          return plan;
        },
        onProgress: editorWorktreeProgress(logger),
        note: (n) => {
          const line = noteLine(n);
          if (line) said(line);
        },
        onSession: () => {
          if (plan)
            sandboxBlockedNotices(plan, (n) => n.type === "notice" && logger.warn(`window host run: ${n.title}`));
        },
        // with no panel following the thread the editor asks (a panel's own answer wins first: hostElicitor)
        elicitor:
          run.elicitation === undefined || run.elicitation === "ask"
            ? editorElicitor(() => run.agentLabel?.name ?? "The window's agent")
            : declines,
      };
    },
    ended: (run, outcome, traffic) => {
      const failed = outcome.end === "error";
      if (run.protocolLog || (failed && run.recordTraffic !== false))
        background(
          writeProtocolLogAsync(traffic, {
            ...(run.protocolLog ? { file: run.protocolLog } : {}),
            failed,
            agentId: outcome.agent.id,
            protocolLogsDir: d.protocolLogsDir,
            say: (line) => logger.info(`window host run: ${line}`),
          }),
          "writing a run's protocol log",
        );
      return RUN_EXIT[outcome.end];
    },
  };
}

/** The runner of the window's in-process host. */
export function windowRunner(d: WindowFrontDeps): HostRunner {
  return hostedRunner(d.home, d.logger, windowFront(d));
}
