/** How an agent's sign-in kinds read (a pure helper of core/registry/auth.ts): "auth: agent / terminal". */
import type { AuthKind } from "./types";

const WORDS: Record<AuthKind, string> = { agent: "agent", terminal: "terminal", env_var: "env var" };
const ORDER: AuthKind[] = ["agent", "terminal", "env_var"];

/** The distinct kinds of `initialize`'s `authMethods`, in a fixed order. */
export function authKindsOf(methods: readonly { kind: AuthKind }[]): AuthKind[] {
  return ORDER.filter((k) => methods.some((m) => m.kind === k));
}

/**
 * "auth: agent / terminal"; "auth: none" when the agent needs no sign-in; for a registry entry not installed
 * (nothing to ask yet) "auth: known once installed"; for an install recorded before probing "auth: unknown".
 */
export function authLabel(kinds: readonly AuthKind[] | undefined, installed: boolean): string {
  if (!kinds) return installed ? "auth: unknown" : "auth: known once installed";
  return kinds.length ? `auth: ${kinds.map((k) => WORDS[k]).join(" / ")}` : "auth: none";
}
