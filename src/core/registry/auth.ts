/**
 * How an agent asks its user to sign in ("auth kind"). The registry's entries do not say (its admission rule is
 * only that every listed agent offers agent or terminal auth), so an install asks the agent itself: one
 * `initialize` probe right after the install, its `authMethods` reduced to their kinds and recorded in
 * installed.json. The picker and `agents list` show them as "auth: agent / terminal / env var".
 */
import { authKind, probeAgent } from "../acp/agent-probe";
import { errorMessage } from "../errors";
import type { AgentSpec } from "../model/agent";
import type { AuthKind } from "./types";

/** Short: an install must not wait long for an agent that does not answer (the agent stays installed). */
export const AUTH_PROBE_TIMEOUT_MS = 20_000;

const WORDS: Record<AuthKind, string> = { agent: "agent", terminal: "terminal", env_var: "env var" };
const ORDER: AuthKind[] = ["agent", "terminal", "env_var"];

/** The distinct kinds of `initialize`'s `authMethods`, in a fixed order. */
export function authKindsOf(methods: readonly { kind: AuthKind }[]): AuthKind[] {
  return ORDER.filter((k) => methods.some((m) => m.kind === k));
}

/** `authKindsOf` for raw ACP auth methods (`type` / legacy `_meta["terminal-auth"]`). */
export const authKindsOfMethods = (methods: readonly Parameters<typeof authKind>[0][]): AuthKind[] =>
  authKindsOf(methods.map(authKind));

/**
 * "auth: agent / terminal"; "auth: none" when the agent needs no sign-in; for a registry entry not installed
 * (nothing to ask yet) "auth: known once installed"; for an install recorded before probing "auth: unknown".
 */
export function authLabel(kinds: readonly AuthKind[] | undefined, installed: boolean): string {
  if (!kinds) return installed ? "auth: unknown" : "auth: known once installed";
  return kinds.length ? `auth: ${kinds.map((k) => WORDS[k]).join(" / ")}` : "auth: none";
}

/** Asks the freshly installed agent (one `initialize`, then its process group is killed). */
export async function probeAuthKinds(
  spec: AgentSpec,
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ auth?: AuthKind[]; error?: string }> {
  try {
    const probe = await probeAgent(spec, {
      cwd: opts.cwd,
      env: opts.env,
      timeoutMs: opts.timeoutMs ?? AUTH_PROBE_TIMEOUT_MS,
    });
    if (!probe.ok) return { error: probe.error ?? "no answer" };
    return { auth: authKindsOf(probe.authMethods ?? []) };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}
