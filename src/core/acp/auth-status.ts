/**
 * `_auth/status_update` (codex-acp 2.6 sends it after `initialize` and after login/logout): the agent's own
 * login state, `{authStatus: {kind, label?}}`. Recorded per runtime (`AcpAgentRuntime.authStatus()`); anything
 * that does not have that shape is ignored.
 */
export const AUTH_STATUS_METHOD = "_auth/status_update";

export interface AuthStatus {
  /** The agent's word for it, e.g. "none" (not logged in), "api-key", "chat-gpt". */
  kind: string;
  /** What to show, e.g. "Not logged in". */
  label?: string;
}

export function parseAuthStatus(params: unknown): AuthStatus | undefined {
  const status = (params as { authStatus?: unknown } | null)?.authStatus as { kind?: unknown; label?: unknown };
  if (typeof status !== "object" || status === null || typeof status.kind !== "string") return undefined;
  return { kind: status.kind, ...(typeof status.label === "string" ? { label: status.label } : {}) };
}

/** One line for people: the label, else the kind. */
export function authStatusText(status: AuthStatus): string {
  return status.label ?? (status.kind === "none" ? "Not logged in" : `Logged in (${status.kind})`);
}
