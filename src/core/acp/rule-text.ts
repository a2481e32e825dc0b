/**
 * A permission rule's readable form (`allow execute "npm test"`, `deny edit "**\/.env"`): parsing and checking it,
 * and writing it back. Pure (no I/O): the editor checks what the user types with the same parse the engine applies
 * when it adds the rule (core/engine/serve-permissions.ts), so the rule saved is the rule the user saw.
 */
import { AcpThreadsError } from "../errors";
import type { RuleEffect } from "../model/permission-rule";

/** Strongest first: deny beats ask beats allow. */
export const EFFECTS: readonly RuleEffect[] = ["deny", "ask", "allow"];

/** What a rule says, without where it is stored. */
export interface RuleText {
  effect: RuleEffect;
  kind: string;
  pattern: string;
}

/** Kinds that edit a file: an `edit` rule covers them all. */
export const EDIT_KINDS: ReadonlySet<string> = new Set(["edit", "delete", "move"]);
/** Kinds whose target is a path (the rest but `execute` match their target exactly). */
const PATH_KINDS: ReadonlySet<string> = new Set([...EDIT_KINDS, "read"]);

export function isPathKind(kind: string): boolean {
  return PATH_KINDS.has(kind);
}

/** The readable form: `allow execute "npm test"`. */
export function formatRule(rule: RuleText): string {
  return `${rule.effect} ${rule.kind} ${JSON.stringify(rule.pattern)}`;
}

/** Parses the readable form; throws a usage error naming what is wrong. */
export function parseRule(text: string): RuleText {
  const m = /^\s*(allow|ask|deny)\s+([a-z_]+)\s+("(?:[^"\\]|\\.)*")\s*$/.exec(text);
  if (!m) {
    throw new AcpThreadsError("usage", `not a permission rule: ${text} (write it as: allow execute "npm test")`);
  }
  return ruleText(m[1] as RuleEffect, m[2], JSON.parse(m[3]) as string);
}

/** A checked rule: a known effect, a kind, and a pattern that is not empty nor a bare wildcard. */
export function ruleText(effect: string, kind: string, pattern: string): RuleText {
  if (!EFFECTS.includes(effect as RuleEffect)) throw new AcpThreadsError("usage", `unknown rule effect: ${effect}`);
  if (!/^[a-z_]+$/.test(kind)) throw new AcpThreadsError("usage", `unknown permission kind: ${kind}`);
  const p = pattern.trim();
  if (!p || p === "*" || (effect === "allow" && /^(?:\*\*|~|\/|~\/\*\*|\/\*\*)$/.test(p))) {
    throw new AcpThreadsError("usage", `the pattern "${pattern}" would cover everything: name a command or path`);
  }
  return { effect: effect as RuleEffect, kind, pattern: p };
}
