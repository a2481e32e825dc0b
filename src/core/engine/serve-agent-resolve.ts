/**
 * Resolving an agent (requests-agent-resolve.ts): the agent an `--agent` value names, and where an agent's program
 * is. Only files are looked at (installed.json, a candidate's `stat`), off the caller's thread; nothing is run.
 */
import { resolveAgent, resolveCommandAsync } from "../acp/agent-registry";
import { installedSpecForAsync } from "../registry/installed";
import type { Handlers } from "./serve-types";

export const agentResolveOps: Handlers<"agents.resolve" | "agents.which"> = {
  "agents.resolve": ({ store, env }, req) =>
    resolveAgent(req.agent, {
      cwd: req.cwd,
      env,
      installed: (id) => installedSpecForAsync(store.home, id),
      allowMissing: req.allowMissing,
    }),
  "agents.which": async ({ env }, req) => ({
    program: await resolveCommandAsync(req.spec.command, req.cwd, { ...env, ...req.spec.env }),
  }),
};
