/**
 * How an agent asks its user to sign in ("auth kind"). The registry's entries do not say (its admission rule is
 * only that every listed agent offers agent or terminal auth), so an install asks the agent itself: one
 * `initialize` probe right after the install, its `authMethods` reduced to their kinds and recorded in
 * installed.json. The picker and `agents list` show them as "auth: agent / terminal / env var".
 */
import { authKind, probeAgent } from "../acp/agent-probe";
import { errorMessage } from "../errors";
import type { AgentSpec } from "../model/agent";
import { authKindsOf } from "./auth-label";
import type { AuthKind } from "./types";

export { authKindsOf, authLabel } from "./auth-label";

/** Short: an install must not wait long for an agent that does not answer (the agent stays installed). */
export const AUTH_PROBE_TIMEOUT_MS = 20_000;

/** `authKindsOf` for raw ACP auth methods (`type` / legacy `_meta["terminal-auth"]`). */
export const authKindsOfMethods = (methods: readonly Parameters<typeof authKind>[0][]): AuthKind[] =>
  authKindsOf(methods.map(authKind));

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
