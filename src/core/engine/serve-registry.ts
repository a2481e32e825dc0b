/**
 * The engine requests of the registry area (core/engine/requests-registry.ts): the registry's listing, the installed
 * agents, and installing, updating and removing them. The registry is read here, from the engine's own registry
 * URL; an install takes the entry the engine read, never a package, URL or path from the request.
 */
import { AcpThreadsError, errorMessage } from "../errors";
import { fetchRegistry } from "../registry/fetch";
import { installAgent } from "../registry/install";
import { findInstalled, listInstalled, listInstalledAsync } from "../registry/installed";
import { uninstallAgent } from "../registry/install";
import type { RegistryAgent, RegistryListing } from "../registry/types";
import { updateFor } from "../registry/update-for";
import { resolveRegistryUrl } from "../registry/url";
import { readHomeSettings } from "../store/home-settings";
import type { RegistryUpdate } from "./requests-registry";
import type { EngineContext, Handlers, Report } from "./serve-types";

type RegistryOp = "registry.list" | "registry.install" | "registry.update" | "registry.remove" | "agents.installed";

/**
 * What a registry agent id may look like before the registry is read: letters, digits, `.`, `_`, `-` (the
 * registry's own rule is stricter, and an entry breaking it is named as invalid once read). A URL, a path or a
 * package spec (`@scope/name`, `name@1.2.3`) is none.
 */
const ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function agentIdOf(op: RegistryOp, id: string): string {
  if (ID_SHAPE.test(id)) return id;
  throw new AcpThreadsError(
    "usage",
    `engine request ${op}: 'agentId' must be a registry agent id (letters, digits, '.', '_', '-'), not a URL, a path or a package spec (got ${JSON.stringify(id)})`,
  );
}

/** The registry the engine reads: the front end's (in process), else ACP_THREADS_REGISTRY_URL, else the home's. */
const registryUrlOf = (ctx: EngineContext): string =>
  resolveRegistryUrl({
    flag: ctx.registryUrl?.(),
    env: ctx.env,
    setting: readHomeSettings(ctx.store.home).registryUrl,
  });

/** The registry as the engine reads it; a warning when it is not the network's copy. */
async function listing(ctx: EngineContext, report: Report, signal?: AbortSignal): Promise<RegistryListing> {
  const read = await fetchRegistry({ url: registryUrlOf(ctx), dataHome: ctx.store.home, signal });
  if (read.source !== "network") report({ t: "warning", message: read.error ?? `using the ${read.source} copy` });
  return read;
}

function entryOf(read: RegistryListing, id: string): RegistryAgent {
  const agent = read.index.agents.find((a) => a.id === id);
  if (agent) return agent;
  const rejected = read.rejected.find((r) => r.id === id);
  if (rejected) throw new AcpThreadsError("corrupt", `the registry's entry '${id}' is invalid: ${rejected.reason}`);
  throw new AcpThreadsError(
    "not_found",
    `no agent '${id}' in the registry (${read.url}); 'acp-threads agents list --available' shows them`,
  );
}

/** Installs the entry the engine read, its phases as progress. */
function install(
  ctx: EngineContext,
  read: RegistryListing,
  agent: RegistryAgent,
  report: Report,
  signal?: AbortSignal,
) {
  return installAgent(agent, {
    dataHome: ctx.store.home,
    registryUrl: read.url,
    env: ctx.env,
    onProgress: (p) => report({ t: "install", ...p }),
    ...(signal ? { signal } : {}),
  });
}

export const registryOps: Handlers<RegistryOp> = {
  "registry.list": async (ctx, _req, report, signal) => {
    const read = await listing(ctx, report, signal);
    const installed = await listInstalledAsync(ctx.store.home);
    const updates: Record<string, string> = {};
    for (const a of installed) {
      const next = updateFor(a, read.index);
      if (next) updates[a.id] = next.version;
    }
    return { ...read, installed, updates };
  },
  "registry.install": async (ctx, req, report, signal) => {
    const id = agentIdOf(req.op, req.agentId);
    const read = await listing(ctx, report, signal);
    const agent = entryOf(read, id);
    const have = findInstalled(ctx.store.home, agent.id);
    if (have?.version === agent.version && !req.reinstall) return { agent: have, already: true };
    report({ t: "step", message: `Installing ${agent.name} ${agent.version}…` });
    return { agent: await install(ctx, read, agent, report, signal), already: false };
  },
  "registry.update": async (ctx, req, report, signal) => {
    const home = ctx.store.home;
    const targets = req.agentId !== undefined ? [findInstalled(home, req.agentId)] : listInstalled(home);
    if (req.agentId !== undefined && !targets[0])
      throw new AcpThreadsError("not_found", `agent '${req.agentId}' is not installed`);
    const updates: RegistryUpdate[] = [];
    if (targets.length === 0) return { updates };
    const read = await listing(ctx, report, signal);
    for (const have of targets) {
      const next = updateFor(have!, read.index);
      if (!next) {
        updates.push({ id: have!.id, version: have!.version });
        continue;
      }
      try {
        await install(ctx, read, next, report, signal);
      } catch (err) {
        if (signal?.aborted) throw err;
        const code = err instanceof AcpThreadsError ? { code: err.code } : {};
        return { updates, failed: { id: have!.id, ...code, message: errorMessage(err) } };
      }
      updates.push({ id: have!.id, version: have!.version, to: next.version });
    }
    return { updates };
  },
  "registry.remove": ({ store }, req) => ({ removed: uninstallAgent(req.agentId, store.home) }),
  "agents.installed": ({ store }) => listInstalledAsync(store.home),
};
