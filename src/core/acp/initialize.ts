/** What we send in `initialize`, and the error when the agent dies before answering it. */
import type * as acp from "@agentclientprotocol/sdk";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { AcpThreadsError, errorMessage } from "../errors";
import type { AgentSpec } from "../model/agent";
import { CLIENT_NAME } from "./client-app";
import type { AgentExit } from "./spawn";

export const CLIENT_VERSION = process.env.ACP_THREADS_VERSION ?? "0.1.0";

/** Capabilities per acp.md §A.4: fs, terminal, terminal auth, Zed's display-only terminal output. */
export function clientInitializeParams(): acp.InitializeRequest {
  return {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      _meta: { terminal_output: true, "terminal-auth": true },
    } as acp.ClientCapabilities,
    clientInfo: { name: CLIENT_NAME, title: "ACP Threads", version: CLIENT_VERSION },
  };
}

export function exitedDuringInitialize(spec: AgentSpec, cause: unknown, exit: AgentExit | undefined, stderrTail: string[]): AcpThreadsError {
  const tail = stderrTail.filter((l) => l.trim()).slice(-20);
  const how = exit ? `exited during initialize (code ${exit.code}, signal ${exit.signal})` : `failed to initialize: ${errorMessage(cause)}`;
  const stderr = tail.length ? `\nlast stderr lines:\n  ${tail.join("\n  ")}` : "\n(no stderr output)";
  return new AcpThreadsError(exit ? "agent_exited" : "protocol", `${spec.displayName} (${spec.command}) ${how}${stderr}`, { stderrTail: tail }, { cause });
}
