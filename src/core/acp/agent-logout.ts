/**
 * `acp-threads agents logout ID` and the editor's "Log out of agent": start the agent, send `logout` when it
 * advertises `agentCapabilities.auth.logout`, and report the login state it sends afterwards
 * (`_auth/status_update`, codex-acp 2.6), then stop it. An agent without logout gets a clear error.
 */
import type { AgentSpec } from "../model/agent";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import { createAgentRuntime } from "./agent-runtime";
import type { AuthStatus } from "./auth-status";
import { killGroup } from "./spawn";

export interface LogoutOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  node?: NodeRuntimeOptions;
}

export async function logoutAgent(spec: AgentSpec, opts: LogoutOptions): Promise<{ authStatus?: AuthStatus }> {
  const rt = createAgentRuntime(
    { agent: spec, cwd: opts.cwd, permissionPolicy: "deny-all" },
    { baseEnv: opts.env ?? process.env, node: opts.node, noPty: true },
  );
  try {
    await rt.logout();
    const status = rt.authStatus();
    return status ? { authStatus: status } : {};
  } finally {
    if (rt.pid !== undefined && rt.pid > 0) killGroup(rt.pid, "SIGTERM");
    await rt.close().catch(() => {});
  }
}
