/**
 * The engine requests of the agents area (core/engine/requests-agents.ts): the managed Node runtimes, doctor, and the
 * one-shot agent requests (logout, session delete). The runtimes folder is always the data home's; programs run
 * with the engine's environment (`ctx.env`).
 */
import { doctor } from "../acp/agent-doctor";
import { deleteAgentSession, logoutAgent } from "../acp/agent-logout";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import type { ThreadStore } from "../store/thread-store";
import type { AgentNodeChoice } from "./requests-agents";
import { installManagedNode, listManagedNodes, removeManagedNode } from "../runtime/managed";
import { runtimesDirOf } from "../runtime/runtimes-dir";
import type { Handlers } from "./serve-types";

type AgentsOp =
  "runtime.list" | "runtime.install" | "runtime.remove" | "agents.doctor" | "agents.logout" | "agents.deleteSession";

/** The Node choice of a request, the runtimes folder the data home's. */
export const nodeOf = (store: ThreadStore, req: AgentNodeChoice): NodeRuntimeOptions => ({
  ...(req.managedNodes ? { runtimesDir: runtimesDirOf(store.home) } : {}),
  ...(req.nodePath !== undefined ? { nodePath: req.nodePath } : {}),
});

export const agentsOps: Handlers<AgentsOp> = {
  "runtime.list": async ({ store }) => {
    const dir = runtimesDirOf(store.home);
    return { dir, nodes: await listManagedNodes(dir) };
  },
  "runtime.install": ({ store, env }, req, report, signal) =>
    installManagedNode(runtimesDirOf(store.home), {
      ...(req.spec !== undefined ? { spec: req.spec } : {}),
      env,
      onProgress: (message) => report({ t: "step", message }),
      ...(signal ? { signal } : {}),
    }),
  "runtime.remove": async ({ store }, req) => {
    const dir = runtimesDirOf(store.home);
    return { dir, removed: await removeManagedNode(dir, req.version) };
  },
  "agents.doctor": ({ store, env }, req) =>
    doctor({
      cwd: req.cwd,
      env,
      ...(req.custom ? { custom: req.custom } : {}),
      ...(req.probe !== undefined ? { probe: req.probe } : {}),
      ...(req.probeTimeoutMs !== undefined ? { probeTimeoutMs: req.probeTimeoutMs } : {}),
      ...(req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {}),
      node: nodeOf(store, req),
    }),
  "agents.logout": ({ store, env }, req) => logoutAgent(req.spec, { cwd: req.cwd, env, node: nodeOf(store, req) }),
  "agents.deleteSession": async ({ store, env }, req) => {
    await deleteAgentSession(req.spec, req.sessionId, { cwd: req.cwd, env, node: nodeOf(store, req) });
    return {};
  },
};
