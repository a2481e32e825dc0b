/**
 * `acp-threads run --agent <preset | command line> [options] PROMPT...`: one session, one turn per PROMPT.
 * See run-turns.ts for the exit codes.
 */
import { join, resolve } from "node:path";
import { createAgentRuntime, type AcpAgentRuntime, type EngineOptions } from "../../core/acp/agent-runtime";
import { resolveAgent } from "../../core/acp/agent-registry";
import type { RuntimeOptions } from "../../core/acp/runtime";
import { AcpThreadsError, errorMessage } from "../../core/errors";
import { stderrLogger } from "../../core/log";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { redactSecrets } from "../../core/redact";
import { oneOf, parseEnvPairs, parseFlags } from "../flags";
import { EXIT, type CliIO } from "../io";
import { jsonOutput, textOutput } from "../output/turn-output";
import { recordRunAsThread } from "../run-recording";
import { runTurns } from "../run-turns";
import { ThreadStore } from "../../core/store/thread-store";

const USAGE = `usage: acp-threads run --agent <codex|claude|gemini|opencode|pi|"command line"> [options] PROMPT...

options:
  --agent A            preset id, or a command line (contains a space or a path) for any ACP agent
  --cwd DIR            session working directory (default: current directory)
  --permission P       approve-all | approve-reads (default) | deny-all
  --format F           text (default) | json (one event per line, then a summary line)
  --timeout S          give up after S seconds (exit 3)
  --env K=V            extra environment for the agent (repeatable)
  --auth METHOD        auth method id to use if the agent asks to authenticate (default: its first one)
  --protocol-log FILE  write the raw JSON-RPC traffic and stderr to FILE
  --verbose            log engine diagnostics to stderr

exit codes: 0 done, 1 agent/protocol error, 2 usage, 3 timeout, 5 permission denied (a policy denial ended
the turn cancelled/refused), 130 interrupted
`;

const FLAGS = {
  agent: { type: "string" },
  cwd: { type: "string" },
  permission: { type: "string" },
  format: { type: "string" },
  timeout: { type: "string" },
  env: { type: "string", multiple: true },
  auth: { type: "string" },
  "protocol-log": { type: "string" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The one place the CLI creates a runtime (thread recording wraps this). */
export function createRunRuntime(opts: RuntimeOptions, engine?: EngineOptions): AcpAgentRuntime {
  return createAgentRuntime(opts, engine);
}

export async function main(io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseRunArgs(io);
  } catch (err) {
    io.stderr.write(`acp-threads run: ${errorMessage(err)}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (parsed === "help") {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const { agentArg, cwd, policy, format, timeoutMs, env, protocolLog, verbose, prompts, authMethodId } = parsed;
  let agent;
  try {
    agent = resolveAgent(agentArg, { cwd, env: io.env });
  } catch (err) {
    io.stderr.write(`acp-threads run: ${errorMessage(err)}\n`);
    return err instanceof AcpThreadsError && err.code === "usage" ? EXIT.usage : EXIT.error;
  }
  const layout = homeLayout(resolveHome(io.env));
  const logger = stderrLogger(verbose ? "debug" : "warn");
  const recorded = recordRunAsThread(
    createRunRuntime(
      { agent, cwd, permissionPolicy: policy, permissionStoreDir: layout.home, env, logger },
      { authMethodId },
    ),
    {
      store: new ThreadStore(layout.home, { logger }),
      agent,
      cwd,
      onError: (m) => io.stderr.write(`acp-threads run: ${m}\n`),
    },
  );
  const rt = recorded.runtime;
  const output = format === "json" ? jsonOutput(io.stdout) : textOutput(io.stdout, io.stderr);
  const summary = await runTurns(rt, { prompts, output, signal: io.signal, timeoutMs });
  await rt.close();
  summary.agent.id = agent.id;
  summary.threadId = recorded.threadId() ?? null;
  if (summary.error) io.stderr.write(`acp-threads run: ${summary.error}\n`);
  output.summary(summary);
  const logFile =
    protocolLog ??
    (summary.exitCode === EXIT.error
      ? join(layout.protocolLogsDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${agent.id}.log`)
      : undefined);
  if (logFile) {
    try {
      rt.protocolLog.writeTo(logFile, redactSecrets);
      if (!protocolLog) io.stderr.write(`acp-threads run: protocol log written to ${logFile}\n`);
    } catch (err) {
      io.stderr.write(`acp-threads run: could not write the protocol log: ${errorMessage(err)}\n`);
    }
  }
  return summary.exitCode;
}

function parseRunArgs(io: CliIO) {
  const { values, positionals } = parseFlags(io.argv, FLAGS);
  if (values.help) return "help" as const;
  if (typeof values.agent !== "string" || !values.agent.trim())
    throw new AcpThreadsError("usage", "--agent is required");
  if (positionals.length === 0) throw new AcpThreadsError("usage", "give at least one PROMPT");
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new AcpThreadsError("usage", `--timeout must be a positive number of seconds`);
    timeoutMs = seconds * 1000;
  }
  return {
    agentArg: values.agent,
    cwd: typeof values.cwd === "string" ? resolve(io.cwd, values.cwd) : io.cwd,
    policy: oneOf(
      "permission",
      values.permission,
      ["approve-all", "approve-reads", "deny-all"] as const,
      "approve-reads",
    ),
    format: oneOf("format", values.format, ["text", "json"] as const, "text"),
    timeoutMs,
    env: parseEnvPairs(values.env as string[] | undefined),
    protocolLog: typeof values["protocol-log"] === "string" ? values["protocol-log"] : undefined,
    verbose: values.verbose === true,
    authMethodId: typeof values.auth === "string" ? values.auth : undefined,
    prompts: positionals,
  };
}
