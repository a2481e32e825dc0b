import type { AgentRef } from "./records";

/** How an agent is launched: a preset from the registry or a custom entry shaped like Zed's `agent_servers`. */
export interface AgentSpec {
  /** Stable id: a preset id (`codex`, `claude`, `gemini`, `opencode`, `pi`) or a custom name. */
  id: string;
  displayName: string;
  /** Command as configured (a name resolved from PATH, or a path). */
  command: string;
  args: string[];
  /** Extra environment for the agent (never persisted: values may be secrets). */
  env?: Record<string, string>;
}

export const PERMISSION_POLICIES = ["approve-all", "approve-reads", "deny-all", "ask"] as const;
/** approve-reads (default): read/search kinds pass, the rest ask (or are denied when nobody can be asked). */
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];
/** The policy a session runs with when none is set. */
export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = "approve-reads";

/** What a thread records of the agent it runs (its `thread_start`). */
export const agentRefOf = (spec: AgentSpec): AgentRef => ({
  id: spec.id,
  name: spec.displayName,
  command: spec.command,
  args: spec.args,
});
