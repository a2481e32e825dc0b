/**
 * The engine's requests for resolving an agent (#35 item 7, session start's first piece): what an `--agent` value
 * (a preset id, an agent installed from the registry, a command line) names, as the agent to start, and where the
 * program of an agent's command is. Plain data in and out.
 *
 * Resolving is not starting: the engine only looks at files (the data home's installed agents, a candidate path's
 * `stat`, a generic entry script's `package.json` for its name); it runs no program. PATH is the engine's
 * environment's (`localEngine({ env })`: the CLI passes its own; the window and the thread host their process's), never
 * the request's. A reply's spec carries an env only when the agent's own entry has one (an installed registry
 * agent's, as `agents.installed` lists it): never a value of the engine's environment.
 */
import type { AgentSpec } from "../model/agent";

export type AgentResolveRequest =
  /**
   * The agent `agent` names, to start in `cwd` (absolute): an agent installed from the registry in the engine's data
   * home by its id, a preset id, or a command line (it has a space or a path); its command looked up as a session
   * start looks it up (a path as given, relative to `cwd`; a name on the engine's PATH only). An unknown name is a
   * usage error; a command not found is the `agent_not_found` error (with a preset's install hint), or with
   * `allowMissing` the spec with its command as given and `found: false`.
   */
  | { op: "agents.resolve"; agent: string; cwd: string; allowMissing?: boolean }
  /**
   * The program the command of `spec` names in `cwd` (absolute), or null: a path as given (relative to `cwd`), a
   * name on the PATH of the engine's environment with the spec's own `env` over it (what a start of the spec sees).
   */
  | { op: "agents.which"; spec: AgentSpec; cwd: string };

export interface AgentResolveReplies {
  /**
   * `found`: the command is the program's absolute path (an installed agent's is the one its install recorded, as
   * a start takes it: not looked up again).
   */
  "agents.resolve": { spec: AgentSpec; found: boolean };
  "agents.which": { program: string | null };
}
