/**
 * Resolving an agent (requests-agent-resolve.ts): the agent an `--agent` value names, and where an agent's program
 * is. Only files are looked at (installed.json, a candidate's `stat`), off the caller's thread; nothing is run.
 */
import { agentNotFound, chooseAgent, resolveCommandAsync } from "../acp/agent-registry";
import { looksLikeCommandLine } from "../acp/command-line";
import { installedSpecForAsync } from "../registry/installed";
import type { Handlers } from "./serve-types";

export const agentResolveOps: Handlers<"agents.resolve" | "agents.which"> = {
  "agents.resolve": async ({ store, env }, req) => {
    // an installed agent wins over a preset of its id; a command line is never looked up there
    const installed = looksLikeCommandLine(req.agent) ? undefined : await installedSpecForAsync(store.home, req.agent);
    const choice = chooseAgent(req.agent, { installed: (id) => (id === req.agent ? installed : undefined) });
    if (choice.ready) return { spec: choice.spec, found: true };
    const program = await resolveCommandAsync(choice.spec.command, req.cwd, env);
    if (program) return { spec: { ...choice.spec, command: program }, found: true };
    if (req.allowMissing) return { spec: choice.spec, found: false };
    throw agentNotFound(choice);
  },
  "agents.which": async ({ env }, req) => ({
    program: await resolveCommandAsync(req.spec.command, req.cwd, { ...env, ...req.spec.env }),
  }),
};
