/**
 * The one place the extension reaches into the engine (src/core) for agents: the runtime factory, the
 * preset list and doctor. Everything else in src/vscode receives these through the hub.
 */
import { AcpThreadsError } from "../core/errors";
import type { DoctorEntry } from "../core/acp/runtime";
import type { AgentSpec } from "../core/model/agent";
import type { RuntimeFactory } from "./live-session";

// Interim until src/core/acp/agent-runtime.ts lands.
export const createRuntime: RuntimeFactory = () => {
  throw new AcpThreadsError("agent_not_found", "The agent runtime is not available in this build.");
};

export function agentPresets(): AgentSpec[] {
  return [];
}

export async function doctor(specs: AgentSpec[]): Promise<DoctorEntry[]> {
  return specs.map((s) => ({ id: s.id, displayName: s.displayName, command: s.command, resolvedPath: null, available: false, version: null, problem: "not checked" }));
}
