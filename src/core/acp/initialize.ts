/** What we send in `initialize`. */
import type * as acp from "@agentclientprotocol/sdk";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { CLIENT_NAME } from "./client-app";
import { VERSION } from "../version";
import { SESSION_FAILURE_CAPABILITY_META } from "./session-failure";

export const CLIENT_VERSION = VERSION;

/**
 * Capabilities per acp.md §A.4: fs, terminal, terminal auth, Zed's display-only terminal output, typed session
 * failures (session-failure.ts), subagent child sessions (subagent-sessions.ts) and elicitation (form and url, `ClientCapabilities.elicitation` in the v1 schema) when someone is there to answer it.
 */
export function clientInitializeParams(opts: { elicitation?: boolean } = {}): acp.InitializeRequest {
  return {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      // Boolean config options show as On/Off pickers (src/vscode/pickers-view.ts).
      session: { configOptions: { boolean: {} } },
      // child sessions of subagents ("standard" subagents in codex-acp 2.6), nested by subagent-sessions.ts
      subagents: {},
      ...(opts.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
      // typed session failures: src/core/acp/session-failure.ts
      _meta: { terminal_output: true, "terminal-auth": true, ...SESSION_FAILURE_CAPABILITY_META },
    } as acp.ClientCapabilities,
    clientInfo: { name: CLIENT_NAME, title: "ACP Threads", version: CLIENT_VERSION },
  };
}
