/**
 * The engine request of the agent import (#35 item 7; joined into core/engine/requests.ts): an agent's own past
 * sessions (its CLI, Zed, another editor) become threads (core/import/agent-import.ts, #36).
 *
 * The agent comes as `agents.logout` names it (requests-agents.ts): its spec as the caller resolved it (a preset, an
 * installed agent, a configured command), started with the engine's environment and `deny-all` permissions, only
 * to list and replay its sessions. The threads are written into the engine's own data home.
 */
import type { AgentSpec } from "../model/agent";
import type { ImportSummary } from "../import/import-summary";
import type { AgentNodeChoice } from "./requests-agents";

export type AgentImportRequest =
  /**
   * Imports the sessions agent `spec` lists for folder `cwd` (absent: every folder it lists, the listing process
   * started in `listFrom`); `dryRun`: only says what an import would do. Progress: before each session, its count
   * (`{t: "progress", done, total}`) then its title (`{t: "step"}`, else its session id). The request's signal stops
   * it between and during loads: the reply then says `cancelled` (what was imported stays).
   */
  { op: "agents.import"; spec: AgentSpec; cwd?: string; listFrom: string; dryRun?: boolean } & AgentNodeChoice;

export interface AgentImportReplies {
  "agents.import": ImportSummary;
}
