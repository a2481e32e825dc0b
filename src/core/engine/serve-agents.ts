/**
 * The engine requests of the agents area (core/engine/requests-agents.ts): the managed Node runtimes and doctor. The
 * runtimes folder is always the data home's; programs run with the engine's environment (`ctx.env`).
 */
import { doctor } from "../acp/agent-doctor";
import { installManagedNode, listManagedNodes, removeManagedNode } from "../runtime/managed";
import { runtimesDirOf } from "../runtime/runtimes-dir";
import type { Handlers } from "./serve-types";

type AgentsOp = "runtime.list" | "runtime.install" | "runtime.remove" | "agents.doctor";

export const agentsOps: Handlers<AgentsOp> = {
  "runtime.list": ({ store }) => {
    const dir = runtimesDirOf(store.home);
    return { dir, nodes: listManagedNodes(dir) };
  },
  "runtime.install": ({ store, env }, req, report, signal) =>
    installManagedNode(runtimesDirOf(store.home), {
      ...(req.spec !== undefined ? { spec: req.spec } : {}),
      env,
      onProgress: (message) => report({ t: "step", message }),
      ...(signal ? { signal } : {}),
    }),
  "runtime.remove": ({ store }, req) => {
    const dir = runtimesDirOf(store.home);
    return { dir, removed: removeManagedNode(dir, req.version) };
  },
  "agents.doctor": ({ store, env }, req) =>
    doctor({
      cwd: req.cwd,
      env,
      ...(req.custom ? { custom: req.custom } : {}),
      ...(req.probe !== undefined ? { probe: req.probe } : {}),
      ...(req.probeTimeoutMs !== undefined ? { probeTimeoutMs: req.probeTimeoutMs } : {}),
      ...(req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {}),
      node: {
        ...(req.managedNodes ? { runtimesDir: runtimesDirOf(store.home) } : {}),
        ...(req.nodePath !== undefined ? { nodePath: req.nodePath } : {}),
      },
    }),
};

const isStrings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `agents.doctor`'s `custom`: agents by id, each {command, args?, env?} of strings. */
export function isDoctorAgents(v: unknown): boolean {
  return (
    isObject(v) &&
    Object.values(v).every(
      (a) =>
        isObject(a) &&
        typeof a.command === "string" &&
        (a.args === undefined || isStrings(a.args)) &&
        (a.env === undefined || (isObject(a.env) && isStrings(Object.values(a.env)))),
    )
  );
}
