/**
 * The recall tools offered to an agent as an MCP server (`acpThreads.recall.offerToAgents`): `acp-threads mcp` on
 * stdio, started by the agent with the command line of the client that offers it (the editor: its own
 * `dist/cli.js` under its runtime), reading the data home the session runs in. One shape for a window's session
 * and for a thread the window starts in the thread host, which names its own home.
 */
import type * as acp from "@agentclientprotocol/sdk";

/** How to start `acp-threads mcp`: the command, its arguments and extra environment (no secrets). */
export interface RecallMcpCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export const RECALL_MCP_NAME = "acp-threads-recall";

/** The MCP server for `cmd`, reading the threads of `home` (ACP_THREADS_HOME, whatever `cmd.env` says). */
export function recallMcpServer(cmd: RecallMcpCommand, home: string): acp.McpServer {
  const env = Object.entries(cmd.env ?? {}).filter(([name]) => name !== "ACP_THREADS_HOME");
  return {
    name: RECALL_MCP_NAME,
    command: cmd.command,
    args: [...cmd.args],
    env: [{ name: "ACP_THREADS_HOME", value: home }, ...env.map(([name, value]) => ({ name, value }))],
  };
}

/** `cmd` as a client sent it over the host's socket, when it has the shape (strings only); else undefined. */
export function recallMcpFromWire(cmd: unknown): RecallMcpCommand | undefined {
  if (!cmd || typeof cmd !== "object") return undefined;
  const { command, args, env } = cmd as Record<string, unknown>;
  if (typeof command !== "string" || !command || !Array.isArray(args) || !args.every((a) => typeof a === "string"))
    return undefined;
  const entries = env && typeof env === "object" ? Object.entries(env as Record<string, unknown>) : [];
  if (!entries.every((e): e is [string, string] => typeof e[1] === "string")) return undefined;
  return { command, args: args as string[], env: Object.fromEntries(entries) };
}
