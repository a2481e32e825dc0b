/**
 * The decision before anyone is asked, for `session/request_permission`, the effect gate and
 * `acp-threads permissions check` alike: rules (deny, then ask, then allow), then "outside the workspace", then
 * the policy mode. Nothing outside the session's roots (workspace folders or the session's worktree, plus
 * additionalDirectories) is allowed by the policy or by a broad rule: only a rule naming that path exactly.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionPolicy } from "../model/agent";
import { executeCommandLine } from "./permission-key";
import { policyVerdict } from "./permission-policy";
import { expandPath, formatRule, isPathKind, matchRules } from "./permission-rules";
import { realpathOfNearest, type PathGuard } from "./path-guard";
import type { PermissionStore } from "./permission-store";

export interface Verdict {
  verdict: "allow" | "deny" | "ask";
  /** Who decided: a rule ("remembered") or the policy (and "outside the workspace", which is policy too). */
  decidedBy: "policy" | "remembered";
  /** The readable rule that decided, when one did. */
  rule?: string;
  /** Words for the card: "allowed by rule: npm test"; for "ask", why it is asked ("outside the workspace"). */
  reason: string;
  /** The request's paths outside the session's roots. */
  outside: string[];
}

export interface DecisionInput {
  store: PermissionStore;
  agentId: string;
  workspace: string;
  policy: PermissionPolicy;
  guard: PathGuard;
  /** Relative paths in a request are resolved against it (the session cwd). */
  cwd: string;
  kind: string;
  toolCall: acp.ToolCallUpdate;
}

/** rawInput keys real agents name files and folders with (claude, gemini, opencode, codex, qwen). */
const PATH_KEYS = [
  "path",
  "file_path",
  "filePath",
  "abs_path",
  "absolute_path",
  "notebook_path",
  "filename",
  "file",
  "cwd",
  "workdir",
  "directory",
  "dir_path",
  "source",
  "destination",
  "old_path",
  "new_path",
];

/** Every path a request names: locations, diff paths, rawInput paths (and codex's `changes` keys). */
export function requestPaths(toolCall: acp.ToolCallUpdate): string[] {
  const out = new Set<string>();
  const add = (p: unknown) => typeof p === "string" && p.trim() && out.add(p.trim());
  for (const l of toolCall.locations ?? []) add(l.path);
  for (const c of toolCall.content ?? []) if (c.type === "diff") add(c.path);
  const raw = toolCall.rawInput;
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    const r = raw as Record<string, unknown>;
    for (const k of PATH_KEYS) add(r[k]);
    if (Array.isArray(r.paths)) for (const p of r.paths) add(p);
    if (r.changes && typeof r.changes === "object" && !Array.isArray(r.changes)) {
      for (const p of Object.keys(r.changes)) add(p);
    }
  }
  return [...out];
}

/** A request's path made absolute (`~`, relative to `cwd`, symlinks of the nearest existing ancestor). */
export async function resolvedPath(path: string, cwd: string): Promise<string> {
  const abs = expandPath(path, cwd);
  return await realpathOfNearest(abs).catch(() => abs);
}

/**
 * Device files that hold nobody's data and that commands name all the time (`2>/dev/null`, `tail -f /dev/null`,
 * `head -c 16 /dev/urandom`): never "outside the workspace" (claude-agent-acp names /dev/null in an execute
 * request's locations, which made approve-all refuse `tail -f /dev/null`).
 */
const HARMLESS_DEVICES: ReadonlySet<string> = new Set([
  "/dev/null",
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/tty",
]);

/** Of `paths` (absolute), those the guard refuses (harmless device files aside). */
export async function outsidePaths(guard: PathGuard, paths: readonly string[]): Promise<string[]> {
  const checked = await Promise.all(
    paths.map((p) =>
      HARMLESS_DEVICES.has(p)
        ? null
        : guard.check(p).then(
            () => null,
            () => p,
          ),
    ),
  );
  return checked.filter((p): p is string => p !== null);
}

export async function decidePermission(input: DecisionInput): Promise<Verdict> {
  const { kind, toolCall, policy } = input;
  const paths = await Promise.all(requestPaths(toolCall).map((p) => resolvedPath(p, input.cwd)));
  const outside = await outsidePaths(input.guard, paths);
  const command = kind === "execute" ? executeCommandLine(toolCall) : undefined;
  let match;
  try {
    const rules = await input.store.rulesFor(input.workspace);
    // a terminal's cwd is not what a file rule is about: file rules see the file kinds' paths only
    match = matchRules(
      rules,
      { agentId: input.agentId, kind, command, paths: isPathKind(kind) ? paths : [], outside },
      input.workspace,
    );
  } catch (err) {
    return {
      verdict: "ask",
      decidedBy: "policy",
      reason: `the permission rules cannot be read (${String(err)})`,
      outside,
    };
  }
  // deny-all is the kill switch: no allow rule opens it
  if (match && !(policy === "deny-all" && match.effect === "allow")) {
    const rule = formatRule(match.rule);
    const words = match.rule.pattern;
    if (match.effect === "deny")
      return { verdict: "deny", decidedBy: "remembered", rule, reason: `denied by rule: ${words}`, outside };
    if (match.effect === "ask")
      return { verdict: "ask", decidedBy: "remembered", rule, reason: `rule: ${words}`, outside };
    // an allow rule covers outside paths only by naming them (matchRules), but never a terminal cwd outside
    if (!outside.length || isPathKind(kind)) {
      return { verdict: "allow", decidedBy: "remembered", rule, reason: `allowed by rule: ${words}`, outside };
    }
  }
  if (outside.length) return { verdict: "ask", decidedBy: "policy", reason: "outside the workspace", outside };
  const verdict = policyVerdict(policy, kind);
  if (verdict === "allow") return { verdict, decidedBy: "policy", reason: `allowed by the ${policy} policy`, outside };
  if (verdict === "deny") return { verdict, decidedBy: "policy", reason: `denied by the ${policy} policy`, outside };
  return { verdict, decidedBy: "policy", reason: `the ${policy} policy asks for ${kind}`, outside };
}
