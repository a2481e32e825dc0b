/**
 * Permission rules as code: one pure engine for the permission handler, the effect gate and
 * `acp-threads permissions check`, so `check` says exactly what the gate does.
 *
 * A rule reads `allow execute "npm test"`, `allow execute "npm run *"`, `deny edit "**\/.env"`,
 * `ask read "~/.ssh/**"`: an effect (allow, ask, deny), a kind and a pattern. Commands match word for word after
 * whitespace and quoting are normalised; a trailing ` *` (the only command wildcard) covers one or more further
 * words of a plain line (never one with `;`, `&&`, `|`, `$(`, redirections or variables). Paths match globs
 * (`**` any depth, `*` within one name, a leading `~` the home folder). Deny beats ask beats allow, and all three
 * beat the policy mode.
 */
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import { EVERYWHERE } from "../model/permission-rule";
import { splitCommandLine } from "./agent-registry";
import type { RuleEffect } from "../model/permission-rule";
import { EDIT_KINDS, EFFECTS, isPathKind, type RuleText } from "./rule-text";

export { EVERYWHERE, type RuleEffect } from "../model/permission-rule";
export { formatRule, isPathKind, parseRule, ruleText, type RuleText } from "./rule-text";

/** A rule as the decision sees it: who it is for and where it holds. */
export interface ScopedRule extends RuleText {
  /** An agent id, or "*" for every agent. */
  agentId: string;
  /** A workspace folder (the rule holds in it and below), or "*" for everywhere. */
  scope: string;
}

/** Shell syntax that chains, substitutes, redirects, expands or backgrounds: the line is more than one command. */
const SHELL_SYNTAX = /[;&|`<>\n\r(){}$]/;

/** The kind family a rule of `ruleKind` covers: an `edit` rule covers delete and move too. */
export function kindCovers(ruleKind: string, kind: string): boolean {
  return ruleKind === kind || (ruleKind === "edit" && EDIT_KINDS.has(kind));
}

/**
 * A command line in its canonical form: its words re-quoted one way, so `npm  test` and `npm "test"` are one
 * line. A line with shell syntax is kept as written (quoting changes what it does there).
 */
export function canonicalCommand(line: string): string {
  const trimmed = line.trim();
  if (SHELL_SYNTAX.test(trimmed)) return trimmed;
  const words = wordsOf(trimmed);
  return words ? words.map(quoteWord).join(" ") : trimmed;
}

/** Whether `pattern` (a command line, maybe ending in ` *`) covers `line`. */
export function matchCommand(pattern: string, line: string, canonicalLine = canonicalCommand(line)): boolean {
  const p = pattern.trim();
  if (!p.endsWith(" *")) return cached(`c:${p}`, () => canonicalCommand(p)) === canonicalLine;
  const l = line.trim();
  if (SHELL_SYNTAX.test(l)) return false;
  const prefix = wordsOf(p.slice(0, -2));
  const words = wordsOf(l);
  if (!prefix?.length || !words || words.length <= prefix.length) return false;
  return prefix.every((w, i) => w === words[i]);
}

/** `~`, `~/x` → the home folder; a relative path → against `cwd`. */
export function expandPath(path: string, cwd: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return resolve(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** Whether the glob `pattern` (`**`, `*`, `?`, a leading `~`) covers the absolute `path`. */
export function matchPath(pattern: string, path: string, home: string = homedir()): boolean {
  const glob = pattern === "~" || pattern.startsWith("~/") ? home + pattern.slice(1) : pattern;
  // a glob with no folder (`*.env`, `**/.env` is already rooted) matches the name at any depth
  const rooted = glob.startsWith("/") || glob.startsWith("**") || /^[A-Za-z]:[\\/]/.test(glob) ? glob : `**/${glob}`;
  return globRegExp(rooted).test(path.replace(/\\/g, "/"));
}

/** A glob has wildcards; a rule without them names its path explicitly. */
export function hasWildcard(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/** Compiled globs and canonical command patterns, by pattern (a rules file's few hundred; cleared when full). */
const compiled = new Map<string, RegExp | string>();
function cached<T extends RegExp | string>(key: string, make: () => T): T {
  let hit = compiled.get(key) as T | undefined;
  if (hit === undefined) {
    if (compiled.size >= 2_000) compiled.clear();
    compiled.set(key, (hit = make()));
  }
  return hit;
}

function globRegExp(glob: string): RegExp {
  return cached(`g:${glob}`, () => compileGlob(glob));
}

function compileGlob(glob: string): RegExp {
  let out = "";
  const g = glob.replace(/\\/g, "/");
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    if (ch === "*" && g[i + 1] === "*") {
      const slash = g[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (ch === "*") out += "[^/]*";
    else if (ch === "?") out += "[^/]";
    else out += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** What a request is about, for the rules: its command line (`execute`) or its absolute paths. */
export interface RuleTarget {
  agentId: string;
  kind: string;
  /** `execute`: the command line as shown (with its env assignments first, if it sets any). */
  command?: string;
  /** Absolute paths (file kinds), already resolved. */
  paths: readonly string[];
  /** Of `paths`, those outside the session's roots: only a rule naming them exactly allows them. */
  outside: readonly string[];
}

export interface RuleMatch {
  effect: RuleEffect;
  rule: ScopedRule;
}

/**
 * The rule that decides `target`, or undefined: a deny rule matching any of its paths (or its command), else an
 * ask rule, else allow rules covering every path (an outside path only by a rule that names it exactly).
 */
export function matchRules(rules: readonly ScopedRule[], target: RuleTarget, workspace: string): RuleMatch | undefined {
  const mine = rules.filter(
    (r) =>
      (r.agentId === "*" || r.agentId === target.agentId) &&
      kindCovers(r.kind, target.kind) &&
      inScope(r.scope, workspace),
  );
  const covers = (r: ScopedRule, path: string) =>
    target.outside.includes(path) && r.effect === "allow" ? r.pattern === path : matchPath(r.pattern, path);
  const line = target.command;
  const canonicalLine = line === undefined ? "" : canonicalCommand(line);
  const hits = (r: ScopedRule): boolean => {
    if (target.kind === "execute") return line !== undefined && matchCommand(r.pattern, line, canonicalLine);
    return isPathKind(target.kind) && target.paths.some((p) => covers(r, p));
  };
  for (const effect of EFFECTS) {
    const candidates = mine.filter((r) => r.effect === effect);
    if (effect === "allow" && isPathKind(target.kind)) {
      // every path needs an allow rule of its own; the first path's names the decision
      const each = target.paths.map((p) => candidates.find((r) => covers(r, p)));
      if (each.length && each.every(Boolean)) return { effect, rule: each[0]! };
      continue;
    }
    const rule = candidates.find(hits);
    if (rule) return { effect, rule };
  }
  return undefined;
}

/** True when a rule of `scope` holds in `workspace` (the folder itself or below it). */
export function inScope(scope: string, workspace: string): boolean {
  if (scope === EVERYWHERE) return true;
  const rel = relative(scope, workspace);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Splits a command line into words with the shell quoting of agent command lines; null on an unbalanced quote. */
export function wordsOf(line: string): string[] | null {
  try {
    return splitCommandLine(line);
  } catch {
    return null;
  }
}

function quoteWord(w: string): string {
  return /^[A-Za-z0-9_./:@=+,%-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
