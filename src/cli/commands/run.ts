/**
 * `acp-threads run --agent <preset | command line> [options] PROMPT...`: one session, one turn per PROMPT, recorded
 * as a thread. `--thread ID` / `--session NAME` continue a stored thread (see ../thread-run.ts).
 */
import { requestSteer } from "../../core/session/steer-inbox";
import { resolve } from "node:path";
import { ProtocolLog } from "../../core/acp/protocol-log";
import { stderrLogger } from "../stderr-logger";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { DEFAULT_STALL_MS } from "../../core/model/watchdog";
import { command } from "../command";
import { parseEnvPairs, timerFlag } from "../flags";
import { EXIT } from "../io";
import { jsonOutput, textOutput } from "../output/turn-output";
import { contextFromFlags } from "../prompt-context";
import { runInProcess } from "../run-in-process";
import { writeProtocolLog } from "../../core/store/protocol-log-file";
import { AcpThreadsError } from "../../core/errors";
import { cliElicitor, ELICITATION_MODES } from "../elicitation-prompt";
import { looksLikeCommandLine } from "../../core/acp/command-line";
import { localEngine } from "../../core/engine/local";
import { DEFAULT_CHECK_TIMEOUT_MS } from "../../core/worktree/ranking";
import { expandCandidates } from "../../core/worktree/ranking";
import { runBestOfCli } from "../best-of";
import { runBestOfDetached } from "../best-of-detached";
import type { FlagValues } from "../flags";
import type { CliIO } from "../io";
import { SANDBOX_FLAGS, sandboxFromFlags } from "../sandbox-flags";
import { hostHolding, runDetached, sendToHost } from "../run-detached";
import { contextToWire } from "../../core/host/wire-context";
import { definedEnv, secondsToTimerMs } from "../../core/util/guards";

const SPEC = {
  name: "run",
  synopsis: [
    `--agent <codex|claude|gemini|opencode|pi|"command line"> [options] PROMPT...`,
    `--agent A --agent B [--runs N] --worktrees [--check CMD] [--detach] [options] PROMPT...`,
    `--thread ID [options] PROMPT...`,
    `--thread ID --review FILE [options] [PROMPT...]`,
    `--session NAME [--agent A] [options] PROMPT...`,
    `--thread ID --steer TEXT`,
  ],
  args: { min: 0, name: "PROMPT" },
  flags: {
    agent: {
      type: "list",
      arg: "A",
      help: "preset id, or a command line (contains a space or a path) for any ACP agent; several: best of N",
    },
    runs: {
      type: "number",
      integer: true,
      min: 1,
      arg: "N",
      help: "best of N: N runs of each --agent, each a thread in a worktree of its own, all at once",
    },
    worktrees: {
      type: "boolean",
      help: "best of N: each candidate in a git worktree of its own (implied by several candidates or --check)",
    },
    check: {
      type: "string",
      arg: "CMD",
      help: "best of N: a shell command run in each candidate's worktree once its agent is done (npm test, a build)",
    },
    "check-timeout": {
      type: "number",
      above: 0,
      ...timerFlag(1000),
      arg: "S",
      help: `best of N: the check is killed (its process group) after S seconds (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000})`,
    },
    concurrency: {
      type: "number",
      integer: true,
      min: 1,
      arg: "N",
      help: "best of N: run at most N candidates at a time (default: all at once)",
    },
    thread: { type: "string", arg: "ID", help: "continue this thread (id or unique prefix) with its agent" },
    steer: {
      type: "string",
      arg: "TEXT",
      help: "with --thread: send TEXT into the turn another process is running on it (when its agent takes steering)",
    },
    session: {
      type: "string",
      arg: "NAME",
      help: "continue the named session of this workspace; created (with --agent) on first use",
    },
    cwd: { type: "string", arg: "DIR", help: "session working directory (default: current directory)" },
    worktree: {
      type: "boolean",
      help: "a new thread works in a git worktree of its own beside the repository (see 'acp-threads worktrees')",
    },
    permission: {
      type: "enum",
      values: ["approve-all", "approve-reads", "deny-all", "ask"],
      default: "approve-reads",
      help: "how permission requests are answered (ask: with --detach, the turn waits for 'acp-threads answer' or an attached terminal)",
    },
    detach: {
      type: "boolean",
      help: "run in the thread host and return at once, printing the thread id ({threadId} with --format json; best of N: each candidate's); 'acp-threads attach' follows it",
    },
    elicitation: {
      type: "enum",
      values: ELICITATION_MODES,
      default: "ask",
      help: "the agent's questions (forms, web pages): ask on a terminal (declined when stdin is not one), decline, or accept the form's defaults",
    },
    format: {
      type: "enum",
      values: ["text", "json"],
      default: "text",
      help: "json: one event per line, then a summary line",
    },
    timeout: { type: "number", above: 0, ...timerFlag(1000), arg: "S", help: "give up after S seconds (exit 3)" },
    env: { type: "list", arg: "K=V", help: "extra environment for the agent" },
    file: {
      type: "list",
      arg: "PATH[:L1-L2]",
      help: "a file, folder or line range as context for the first prompt (embedded when the agent takes it)",
    },
    image: { type: "list", arg: "PATH", help: "a PNG, JPEG, GIF or WebP image for the first prompt (up to 5 MB)" },
    review: {
      type: "string",
      arg: "FILE",
      help: "send the review comments in FILE ('path:line: comment' or 'path:start-end: comment' lines, paths in the thread's folder) as the first turn, the code quoted; the first PROMPT, if any, opens it",
    },
    auth: {
      type: "string",
      arg: "METHOD",
      help: "auth method id to use if the agent asks to authenticate (default: its first one)",
    },
    wait: {
      type: "boolean",
      negatable: true,
      help: "when another process writes the thread: follow it read-only and take over once it is free (default); --no-wait: exit 6",
    },
    "stall-timeout": {
      type: "number",
      min: 0,
      arg: "S",
      help: `watchdog: a turn with no update for S seconds is stalled (default ${DEFAULT_STALL_MS / 1000}; 0: off)`,
    },
    retry: {
      type: "enum",
      values: ["offer", "auto", "off"],
      default: "offer",
      help: "watchdog: offer (report the next step), auto (cancel → continue → restart by itself), off",
    },
    ...SANDBOX_FLAGS,
    "protocol-log": { type: "string", arg: "FILE", help: "write the raw JSON-RPC traffic and stderr to FILE" },
    verbose: { type: "boolean", help: "log engine diagnostics to stderr" },
  },
  notes: `best of N (several --agent, or --runs N, --worktrees, --check): every candidate runs at once in a fresh
worktree of the same commit under the --permission policy (never an interactive question: --elicitation ask is
decline); then a comparison table (JSON array with --format json, best first) and the 'worktrees apply' /
'worktrees discard' commands; exit 0 when at least one candidate finished, 1 when none did.
best of N with --detach: the worktrees are made here, every candidate runs in the thread host, and the command
prints each candidate's thread and label ({bestOf, threads: [{threadId, label}]} with --format json) and returns
(0: at least one started); 'acp-threads worktrees compare BESTOF' waits for them, runs --check in each worktree and
prints the comparison (a window on the repository, opened or reloaded after, shows it in its compare view).
exit codes: 0 done, 1 agent/protocol error (or a watchdog alert it could not clear), 2 usage, 3 timeout,
5 permission denied (a policy denial ended the turn cancelled/refused), 6 the thread is held by another process
(--no-wait), 130 interrupted`,
} as const;

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const agents = flags.agent;
    if (agents.length > 1 || flags.runs !== undefined || flags.worktrees || flags.check !== undefined)
      return bestOf(io, flags, args);
    const agent = agents[0];
    if (!agent && !flags.thread && !flags.session)
      throw new AcpThreadsError(
        "usage",
        "--agent is required for a new thread (or continue one with --thread ID or --session NAME)",
      );
    if (flags.thread && flags.session) throw new AcpThreadsError("usage", "give --thread or --session, not both");
    if (flags.permission === "ask" && !flags.detach)
      throw new AcpThreadsError(
        "usage",
        "--permission ask goes with --detach (answered from any shell with 'acp-threads answer')",
      );
    if (flags.detach) return detach(io, flags, args);
    const held = flags.thread ? await hostHolding(io, flags.thread, "run") : undefined;
    if (held) {
      if (flags.steer !== undefined) return sendToHost(io, held, { steer: flags.steer });
      // read and checked here, as for a run of its own; the host checks them against its run's folders
      const context = contextFromFlags(flags.file ?? [], flags.image ?? [], resolve(io.cwd, flags.cwd ?? "."));
      return sendToHost(io, held, { prompts: args, context });
    }
    if (flags.steer !== undefined) {
      if (!flags.thread || args.length)
        throw new AcpThreadsError("usage", "--steer TEXT takes --thread ID and no PROMPT");
      const store = new ThreadStore(homeLayout(resolveHome(io.env)).home);
      await requestSteer(store, store.resolveId(flags.thread), flags.steer);
      io.stderr.write("acp-threads run: steered into the running turn\n");
      return EXIT.ok;
    }
    if (!args.length && !flags.review) throw new AcpThreadsError("usage", "missing argument: PROMPT");
    // checked before any agent starts: a missing file or a non-image is a usage error
    const context = contextFromFlags(flags.file ?? [], flags.image ?? [], resolve(io.cwd, flags.cwd ?? "."));
    const layout = homeLayout(resolveHome(io.env));
    const logger = stderrLogger(flags.verbose ? "debug" : "warn");
    const output = flags.format === "json" ? jsonOutput(io.stdout) : textOutput(io.stdout, io.stderr);
    const traffic = new ProtocolLog();
    const sandbox = await sandboxFromFlags(io, "run", flags, flags.worktree === true, resolveHome(io.env));
    const summary = await runInProcess({
      io,
      store: new ThreadStore(layout.home, { logger }),
      logger,
      output,
      prompts: args,
      context,
      review: flags.review,
      thread: flags.thread,
      session: flags.session,
      agent,
      cwd: flags.cwd,
      worktree: flags.worktree,
      permission: flags.permission,
      elicitor: cliElicitor(flags.elicitation, {
        stdin: io.stdin,
        stderr: io.stderr,
        interactive: (io.stdin as { isTTY?: boolean }).isTTY === true,
      }),
      ...sharedOptions(flags),
      wait: flags.wait !== false,
      onTraffic: (e) => traffic.add(e.direction, e.text),
      sandbox,
    });
    if (summary.error) io.stderr.write(`acp-threads run: ${summary.error}\n`);
    output.summary(summary);
    writeProtocolLog(traffic, {
      file: flags["protocol-log"],
      failed: summary.exitCode === EXIT.error,
      agentId: summary.agent.id,
      protocolLogsDir: layout.protocolLogsDir,
      say: (line) => io.stderr.write(`acp-threads run: ${line}\n`),
    });
    return summary.exitCode;
  },
  "run prompt turns against an ACP agent",
);

type RunFlags = FlagValues<typeof SPEC.flags>;

/** The options every run (one thread, best of N, detached) reads from the flags the same way. */
function sharedOptions(flags: RunFlags) {
  return {
    env: parseEnvPairs(flags.env),
    authMethodId: flags.auth,
    timeoutMs: flags.timeout !== undefined ? secondsToTimerMs(flags.timeout) : undefined,
    stallMs: (flags["stall-timeout"] ?? DEFAULT_STALL_MS / 1000) * 1000,
    retry: flags.retry,
  };
}

/** `run --detach`: the flags that make sense in the host, as data; the rest is refused (usage). */
async function detach(io: CliIO, flags: RunFlags, args: string[]): Promise<number> {
  if (flags.steer !== undefined) throw new AcpThreadsError("usage", "--steer does not go with --detach");
  if (flags.review !== undefined) throw new AcpThreadsError("usage", "--review does not go with --detach yet");
  if (!args.length) throw new AcpThreadsError("usage", "missing argument: PROMPT");
  const runCwd = flags.cwd !== undefined ? resolve(io.cwd, flags.cwd) : undefined;
  // read and checked here, by the asking client, as `run` does: a missing file or a non-image is a usage error
  const context = contextFromFlags(flags.file ?? [], flags.image ?? [], runCwd ?? io.cwd);
  const sandbox = await sandboxFromFlags(io, "run", flags, flags.worktree === true, resolveHome(io.env));
  const protocolLog = flags["protocol-log"];
  return runDetached(
    io,
    {
      cwd: io.cwd,
      prompts: args,
      agent: flags.agent[0],
      thread: flags.thread,
      session: flags.session,
      runCwd,
      worktree: flags.worktree,
      permission: flags.permission,
      ...sharedOptions(flags),
      baseEnv: definedEnv(io.env),
      ...(context.length ? { context: contextToWire(context) } : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(protocolLog !== undefined ? { protocolLog: resolve(io.cwd, protocolLog) } : {}),
      elicitation: flags.elicitation,
    },
    flags.format === "json",
  );
}

/** Best of N: the flags checked, the candidates named, then ../best-of.ts runs them. */
async function bestOf(io: CliIO, flags: RunFlags, args: string[]): Promise<number> {
  for (const f of ["thread", "session", "steer", "review", "protocol-log"] as const)
    if (flags[f] !== undefined)
      throw new AcpThreadsError("usage", `--${f} does not go with best of N (several candidates)`);
  if (!flags.agent.length) throw new AcpThreadsError("usage", "best of N needs --agent (one or more)");
  // never asks: several candidates would ask at once (--detach too: nobody may be there to answer)
  if (flags.permission === "ask") throw new AcpThreadsError("usage", "--permission ask does not go with best of N");
  if (!args.length) throw new AcpThreadsError("usage", "missing argument: PROMPT");
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const context = contextFromFlags(flags.file ?? [], flags.image ?? [], cwd);
  const layout = homeLayout(resolveHome(io.env));
  // an unknown agent is the command's error (exit 2); one that is not installed is its candidate's failure
  // a command line is labelled by its program's name (its id also carries a hash of the line: commandLineAgentId)
  const engine = localEngine({ home: layout.home, env: io.env });
  const names = new Map<string, string>();
  for (const agent of flags.agent)
    if (!names.has(agent)) {
      const { spec } = await engine.call({ op: "agents.resolve", agent, cwd, allowMissing: true });
      names.set(agent, looksLikeCommandLine(agent) ? spec.displayName : spec.id);
    }
  const candidates = expandCandidates(flags.agent, flags.runs ?? 1, (a) => names.get(a) ?? a);
  if (flags.detach) {
    if (flags.concurrency !== undefined)
      throw new AcpThreadsError("usage", "--concurrency does not go with --detach (the host starts every candidate)");
    return runBestOfDetached({
      io,
      candidates,
      cwd,
      context,
      ...(flags.check !== undefined ? { check: flags.check } : {}),
      ...(flags["check-timeout"] !== undefined ? { checkTimeoutMs: flags["check-timeout"] * 1000 } : {}),
      run: {
        prompts: args,
        permission: flags.permission,
        ...sharedOptions(flags),
        baseEnv: definedEnv(io.env),
        startedFrom: "automation",
        // never an interactive question, as without --detach (an attached terminal is not asked either)
        elicitation: flags.elicitation === "ask" ? "decline" : flags.elicitation,
        ...(await sandboxOf(io, flags)),
      },
      json: flags.format === "json",
    });
  }
  const logger = stderrLogger(flags.verbose ? "debug" : "warn");
  return runBestOfCli({
    io,
    store: new ThreadStore(layout.home, { logger }),
    logger,
    candidates,
    prompts: args,
    context,
    cwd,
    check: flags.check,
    checkTimeoutMs: (flags["check-timeout"] ?? DEFAULT_CHECK_TIMEOUT_MS / 1000) * 1000,
    concurrency: flags.concurrency,
    permission: flags.permission,
    elicitation: flags.elicitation,
    ...sharedOptions(flags),
    json: flags.format === "json",
    ...(await sandboxOf(io, flags)),
  });
}

/** Every candidate's sandbox (each in a worktree of its own), when the flags ask for one. */
async function sandboxOf(io: CliIO, flags: RunFlags) {
  const sandbox = await sandboxFromFlags(io, "run", flags, true, resolveHome(io.env));
  return sandbox ? { sandbox } : {};
}
