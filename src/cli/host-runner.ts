/**
 * What the thread host runs for `run --detach`: the `run` command's own path (thread-run.ts), with the host's
 * controls wired in: its asker for `--permission ask`, prompts, cancel and steering from any client, and the
 * thread handed to the host once open. Nothing is printed: the thread's records are what clients see.
 */
import { Writable, PassThrough } from "node:stream";
import type { Logger } from "../core/log";
import type { HostRunner } from "../core/host/server";
import { HOST_TAG, ranInHost } from "../core/host/thread-tag";
import { TurnReport } from "../core/host/turn-report";
import { ThreadStore } from "../core/store/thread-store";
import type { TurnOutput } from "./output/turn-output";
import { runOnThread } from "./thread-run";
import type { ThreadRunOptions } from "./thread-run-options";
import { recallMcpFromWire, recallMcpServer } from "../core/recall/mcp-offer";
import { ProtocolLog } from "../core/acp/protocol-log";
import { assertContextInside, contextFromWire, partsFromWire } from "../core/host/wire-context";
import { PATCH_TITLE_MAX, type DetachedRun } from "../core/host/protocol";
import { isThreadId } from "../core/store/thread-id";
import type { ContextItem, PromptPart } from "../core/model/context";
import { promptPartsText } from "../core/prompt/blocks";
import { homeLayout } from "../core/store/paths";
import { cliElicitor } from "./elicitation-prompt";
import { EXIT } from "./io";
import { writeProtocolLog } from "./protocol-log-file";

const quiet: TurnOutput = { event: () => {}, summary: () => {} };
const noInput = new PassThrough();
/** The labels a client may give a thread it starts (DetachedRun.startedFrom); anything else is `automation`. */
const STARTED_FROM: ReadonlySet<string> = new Set(["editor", "cli", "automation"]);

export function hostRunner(home: string, logger: Logger): HostRunner {
  const store = new ThreadStore(home, { logger });
  return async (run, ctl) => {
    const { context, firstParts } = await runContext(run);
    const queue: string[] = [];
    let done = false;
    const report = new TurnReport();
    const traffic = new ProtocolLog();
    const summary = await runOnThread({
      io: {
        argv: [],
        stdout: new Writable({ write: (_c, _e, cb) => cb() }),
        stderr: process.stderr, // the host's log
        stdin: new PassThrough(),
        env: run.baseEnv ?? process.env,
        cwd: run.cwd,
        signal: ctl.signal,
      },
      store,
      logger,
      output: quiet,
      prompts: firstParts ? [promptPartsText(firstParts), ...run.prompts.slice(1)] : run.prompts,
      context,
      ...(firstParts ? { firstParts } : {}),
      ...(run.roots?.length ? { roots: run.roots } : {}),
      ...runtimeOptions(run, home),
      ...(run.sandbox ? { sandbox: run.sandbox } : {}),
      elicitor: cliElicitor(run.elicitation ?? "ask", { stdin: noInput, stderr: process.stderr, interactive: false }),
      onTraffic: (e) => traffic.add(e.direction, e.text),
      thread: run.thread,
      session: run.session,
      agent: run.agent,
      startedFrom: STARTED_FROM.has(run.startedFrom ?? "") ? run.startedFrom : "automation",
      ...(run.agentLabel ? { agentLabel: run.agentLabel } : {}),
      cwd: run.runCwd,
      worktree: run.worktree,
      permission: run.permission,
      asker: ctl.asker,
      files: ctl.files,
      terminalHost: (cwd, agentName) => ctl.terminalHost(cwd, run.agentLabel?.name ?? agentName),
      env: { ACP_THREADS_HOME: home, ...run.env }, // as the editor's sessions: the agent's tools find this home
      ...(run.baseEnv ? { baseEnv: run.baseEnv } : {}),
      authMethodId: run.authMethodId,
      timeoutMs: run.timeoutMs,
      wait: false,
      stallMs: run.stallMs,
      retry: run.retry,
      onSession: (s) => {
        s.live.handle.onAppend?.((records, start, end) => ctl.appended(records, start, end));
        // the editor continues a thread the host ran in the host again (thread-tag.ts)
        if (!ranInHost(s.metadata)) s.live.patch({ tags: [...s.metadata.tags, HOST_TAG] });
        s.onEvent((e) => {
          ctl.updated();
          const end = report.add(e);
          if (end) ctl.turnEnded(end.stopReason, end.filesChanged, end.usage);
        });
        ctl.opened(s.threadId, store.pathFor(s.threadId), {
          prompt: (text) => {
            if (done) throw new Error(`the run on thread ${s.threadId} is ending; run it again with --thread`);
            queue.push(text);
          },
          cancel: () => s.cancel(),
          steer: (text) => s.steer(text),
          unqueue: (text) => {
            const at = queue.indexOf(text);
            if (at >= 0) queue.splice(at, 1);
            return at >= 0;
          },
          // through the handle the run holds (one writer per thread file): its record goes to the clients as any other
          rename: (title) => store.rename(s.threadId, title),
        });
      },
      nextPrompt: () => {
        const next = queue.shift();
        if (next === undefined) done = true;
        return next;
      },
    });
    writeProtocolLog(traffic, {
      file: run.protocolLog,
      failed: summary.exitCode === EXIT.error,
      agentId: summary.agent.id,
      protocolLogsDir: homeLayout(home).protocolLogsDir,
      stderr: process.stderr,
    });
    return { exitCode: summary.exitCode, ...(summary.error ? { error: summary.error } : {}) };
  };
}

/**
 * The run's first-prompt context from the wire, refused (the run does not start) when any of it names a file
 * outside the run's folders: its folder (`--cwd`'s, else the client's) and `roots`.
 */
async function runContext(run: DetachedRun): Promise<{ context: ContextItem[]; firstParts?: PromptPart[] }> {
  const context = contextFromWire(run.context);
  const firstParts = Array.isArray(run.parts) ? partsFromWire(run.parts) : undefined;
  const items = [...context, ...(firstParts ?? []).flatMap((p) => (p.type === "context" ? [p.item] : []))];
  if (items.length) await assertContextInside(items, [run.runCwd ?? run.cwd, ...(run.roots ?? [])]);
  return { context, ...(firstParts ? { firstParts } : {}) };
}

/**
 * The run's session options the editor gives its own sessions: the recall tools as an MCP server (started with
 * the asking client's command line, on this home), traffic recording turned off, a new thread's title and the
 * thread a handoff continues.
 */
function runtimeOptions(
  run: DetachedRun,
  home: string,
): Pick<ThreadRunOptions, "mcpServers" | "recordTraffic" | "title" | "origin"> {
  const recall = recallMcpFromWire(run.recallMcp);
  const title = typeof run.title === "string" ? run.title.trim().slice(0, PATCH_TITLE_MAX) : "";
  const from = typeof run.handoffFrom === "string" && isThreadId(run.handoffFrom) ? run.handoffFrom : undefined;
  return {
    ...(recall ? { mcpServers: [recallMcpServer(recall, home)] } : {}),
    ...(run.recordTraffic === false ? { recordTraffic: false } : {}),
    ...(title ? { title } : {}),
    ...(from ? { origin: { kind: "handoff", source: from } } : {}),
  };
}
