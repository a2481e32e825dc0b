/**
 * `doctor`'s `initialize` probe: start the agent through the real engine (same spawn, same Node choice, our
 * client capabilities), read what it advertises, then kill its process group. A probe never throws: a failure
 * (no answer within the timeout, a crash, a missing Node) is the probe's `error`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AcpThreadsError, errorMessage } from "../errors";
import type { AgentSpec } from "../model/agent";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import { createAgentRuntime } from "./agent-runtime";
import type { AgentCapabilitiesView, AgentProbe } from "./runtime";
import { killGroup } from "./spawn";
export { probeLines } from "./probe-lines";
import { setTimeout as sleep } from "node:timers/promises";

/** Generous: gemini and opencode take 3–5 s to answer on an idle machine, 15 s and more on a busy one. */
export const PROBE_TIMEOUT_MS = 30_000;

export interface ProbeOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  node?: NodeRuntimeOptions;
  timeoutMs?: number;
  /** How long to wait after `initialize` for the agent's login state (`_auth/status_update`); default 1 s. */
  authWaitMs?: number;
}

const setKeys = (o: object | null | undefined) =>
  Object.entries(o ?? {})
    .filter(([k, v]) => !k.startsWith("_") && v !== null && v !== undefined && v !== false)
    .map(([k]) => k)
    .sort();

/** `type: "terminal"` (or the legacy `_meta["terminal-auth"]`), `type: "env_var"`, else `agent` (the default). */
export function authKind(m: acp.AuthMethod): { kind: "agent" | "terminal" | "env_var"; vars?: string[] } {
  const raw = m as { type?: unknown; vars?: unknown; _meta?: Record<string, unknown> | null };
  if (raw.type === "terminal" || raw._meta?.["terminal-auth"]) return { kind: "terminal" };
  if (raw.type === "env_var") {
    const vars = Array.isArray(raw.vars)
      ? raw.vars.map((v) => (v as { name?: unknown })?.name).filter((n): n is string => typeof n === "string")
      : [];
    return { kind: "env_var", vars };
  }
  return { kind: "agent" };
}

export function summarizeCapabilities(caps: AgentCapabilitiesView, elapsedMs: number): AgentProbe {
  const a = caps.agentCapabilities;
  const info = caps.agentInfo;
  return {
    ok: true,
    protocolVersion: caps.protocolVersion,
    ...(info
      ? { agentInfo: { name: info.name, ...(info.title ? { title: info.title } : {}), version: info.version } }
      : {}),
    loadSession: !!a.loadSession,
    sessionCapabilities: setKeys(a.sessionCapabilities),
    promptCapabilities: setKeys(a.promptCapabilities),
    mcpCapabilities: setKeys(a.mcpCapabilities),
    authMethods: caps.authMethods.map((m) => ({ id: m.id, name: m.name, ...authKind(m) })),
    elapsedMs,
  };
}

export async function probeAgent(spec: AgentSpec, opts: ProbeOptions): Promise<AgentProbe> {
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const failed = (err: unknown): AgentProbe => ({
    ok: false,
    error: errorMessage(err),
    elapsedMs: Date.now() - started,
  });
  let rt;
  try {
    rt = createAgentRuntime(
      { agent: spec, cwd: opts.cwd, permissionPolicy: "deny-all" },
      { baseEnv: opts.env ?? process.env, node: opts.node, noPty: true },
    );
  } catch (err) {
    return failed(err);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AcpThreadsError("timeout", `no initialize answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const caps = await Promise.race([rt.start(), timeout]);
    const summary = summarizeCapabilities(caps, Date.now() - started);
    // codex-acp 2.6 reports its login state in a notification right after the initialize answer
    const until = Date.now() + (opts.authWaitMs ?? 1000);
    while (!rt.authStatus() && Date.now() < until) await sleep(25);
    const status = rt.authStatus();
    return status ? { ...summary, authStatus: status } : summary;
  } catch (err) {
    return failed(err);
  } finally {
    clearTimeout(timer);
    // most adapters ignore stdin EOF: end the whole group now rather than after the engine's grace periods
    if (rt.pid !== undefined && rt.pid > 0) killGroup(rt.pid, "SIGTERM");
    await rt.close().catch(() => {});
  }
}
