/**
 * `acp-threads run --agent <preset | command line> [options] PROMPT...`: one session, one turn per PROMPT.
 * See run-turns.ts for the exit codes.
 */
import { join, resolve } from "node:path";
import { createAgentRuntime, type AcpAgentRuntime, type EngineOptions } from "../../core/acp/agent-runtime";
import { resolveAgent } from "../../core/acp/agent-registry";
import type { RuntimeOptions } from "../../core/acp/runtime";
import { errorMessage } from "../../core/errors";
import { stderrLogger } from "../../core/log";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { redactSecrets } from "../../core/redact";
import { command } from "../command";
import { parseEnvPairs } from "../flags";
import { EXIT } from "../io";
import { jsonOutput, textOutput } from "../output/turn-output";
import { recordRunAsThread } from "../run-recording";
import { runTurns } from "../run-turns";
import { ThreadStore } from "../../core/store/thread-store";

const SPEC = {
  name: "run",
  synopsis: `--agent <codex|claude|gemini|opencode|pi|"command line"> [options] PROMPT...`,
  args: { min: 1, name: "PROMPT" },
  flags: {
    agent: {
      type: "string",
      arg: "A",
      required: true,
      help: "preset id, or a command line (contains a space or a path) for any ACP agent",
    },
    cwd: { type: "string", arg: "DIR", help: "session working directory (default: current directory)" },
    permission: {
      type: "enum",
      values: ["approve-all", "approve-reads", "deny-all"],
      default: "approve-reads",
      help: "how permission requests are answered",
    },
    format: {
      type: "enum",
      values: ["text", "json"],
      default: "text",
      help: "json: one event per line, then a summary line",
    },
    timeout: { type: "number", above: 0, arg: "S", help: "give up after S seconds (exit 3)" },
    env: { type: "list", arg: "K=V", help: "extra environment for the agent" },
    auth: {
      type: "string",
      arg: "METHOD",
      help: "auth method id to use if the agent asks to authenticate (default: its first one)",
    },
    "protocol-log": { type: "string", arg: "FILE", help: "write the raw JSON-RPC traffic and stderr to FILE" },
    verbose: { type: "boolean", help: "log engine diagnostics to stderr" },
  },
  notes: `exit codes: 0 done, 1 agent/protocol error, 2 usage, 3 timeout, 5 permission denied (a policy denial ended
the turn cancelled/refused), 130 interrupted`,
} as const;

/** The one place the CLI creates a runtime (thread recording wraps this). */
export function createRunRuntime(opts: RuntimeOptions, engine?: EngineOptions): AcpAgentRuntime {
  return createAgentRuntime(opts, engine);
}

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const cwd = flags.cwd !== undefined ? resolve(io.cwd, flags.cwd) : io.cwd;
    const env = parseEnvPairs(flags.env);
    const agent = resolveAgent(flags.agent, { cwd, env: io.env });
    const layout = homeLayout(resolveHome(io.env));
    const logger = stderrLogger(flags.verbose ? "debug" : "warn");
    const recorded = recordRunAsThread(
      createRunRuntime(
        { agent, cwd, permissionPolicy: flags.permission, permissionStoreDir: layout.home, env, logger },
        { authMethodId: flags.auth },
      ),
      {
        store: new ThreadStore(layout.home, { logger }),
        agent,
        cwd,
        onError: (m) => io.stderr.write(`acp-threads run: ${m}\n`),
      },
    );
    const rt = recorded.runtime;
    const output = flags.format === "json" ? jsonOutput(io.stdout) : textOutput(io.stdout, io.stderr);
    const timeoutMs = flags.timeout !== undefined ? flags.timeout * 1000 : undefined;
    const summary = await runTurns(rt, { prompts: args, output, signal: io.signal, timeoutMs });
    await rt.close();
    summary.agent.id = agent.id;
    summary.threadId = recorded.threadId() ?? null;
    if (summary.error) io.stderr.write(`acp-threads run: ${summary.error}\n`);
    output.summary(summary);
    const protocolLog = flags["protocol-log"];
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
  },
  "run prompt turns against an ACP agent",
);
