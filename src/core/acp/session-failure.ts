/**
 * Typed session failures (the `_meta.jetbrains.air.sessionFailure` extension that codex-acp ≥ 2 and
 * claude-agent-acp ≥ 0.100 speak when the client advertises it in `initialize`): a model API failure ends the
 * prompt with `end_turn` and `{category, severity, title, details?, actions}` in the response's `_meta`, instead
 * of a JSON-RPC error or (codex-acp 2.6 without it) the provider's error text as the agent's answer.
 * `session_info_update`s carry the same object for retry warnings (severity "warning").
 */
import { isObj } from "../util/guards";

/** Advertised in `clientCapabilities._meta` so the agents report failures this way. */
export const SESSION_FAILURE_CAPABILITY_META = { jetbrains: { air: { version: 1, capabilities: ["sessionFailure"] } } };

export interface SessionFailure {
  severity: "error" | "warning";
  title: string;
  category?: string;
  details?: string;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The session failure an ACP `_meta` carries, if any. */
export function sessionFailureOf(meta: unknown): SessionFailure | undefined {
  if (!isObj(meta) || !isObj(meta.jetbrains) || !isObj(meta.jetbrains.air)) return undefined;
  const f = meta.jetbrains.air.sessionFailure;
  if (!isObj(f)) return undefined;
  const title = text(f.title);
  if (!title) return undefined;
  const out: SessionFailure = { severity: f.severity === "warning" ? "warning" : "error", title };
  const category = text(f.category);
  const details = text(f.details);
  if (category) out.category = category;
  if (details && details !== title) out.details = details;
  return out;
}

/** The failure as one line for the thread and the CLI: its title, then its details. */
export function sessionFailureMessage(f: SessionFailure): string {
  return f.details ? `${f.title}: ${f.details}` : f.title;
}
