/**
 * One-shot requests to an agent that is not running a session: `acp-threads agents logout ID` and the editor's
 * "Log out of agent" (`logout` when it advertises `agentCapabilities.auth.logout`, then the login state it sends,
 * `_auth/status_update` as codex-acp 2.6 does), and `threads delete ID --agent-session` (`session/delete` when it
 * advertises `sessionCapabilities.delete`). The agent is started for the request and stopped after; an agent
 * without the capability gets a clear error.
 */
import type { AgentSpec } from "../model/agent";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import { createAgentRuntime, type AcpAgentRuntime } from "./agent-runtime";
import type { AuthStatus } from "./auth-status";
import { killGroup } from "./spawn";

export interface LogoutOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  node?: NodeRuntimeOptions;
}

async function withAgent<T>(spec: AgentSpec, opts: LogoutOptions, fn: (rt: AcpAgentRuntime) => Promise<T>): Promise<T> {
  const rt = createAgentRuntime(
    { agent: spec, cwd: opts.cwd, permissionPolicy: "deny-all" },
    { baseEnv: opts.env ?? process.env, node: opts.node, noPty: true },
  );
  try {
    return await fn(rt);
  } finally {
    if (rt.pid !== undefined && rt.pid > 0) killGroup(rt.pid, "SIGTERM");
    await rt.close().catch(() => {});
  }
}

export function logoutAgent(spec: AgentSpec, opts: LogoutOptions): Promise<{ authStatus?: AuthStatus }> {
  return withAgent(spec, opts, async (rt) => {
    await rt.logout();
    const status = rt.authStatus();
    return status ? { authStatus: status } : {};
  });
}

/** Asks the agent to delete its session `sessionId` (`session/delete`). */
export function deleteAgentSession(spec: AgentSpec, sessionId: string, opts: LogoutOptions): Promise<void> {
  return withAgent(spec, opts, (rt) => rt.deleteSession(sessionId));
}
