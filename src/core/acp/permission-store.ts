/**
 * Permission rules (remembered "Always allow" answers and rules added by hand) and the permission audit log.
 *
 * A rule says: agent A (or "*", every agent) is allowed / asked / denied KIND on KEY (a path glob, or a command
 * line, maybe ending in ` *`: permission-rules.ts) in SCOPE (a workspace folder, or "*" for everywhere). Rules live
 * in one readable JSON file per data home (`permissions.json`, mode 0600) that every window and CLI process shares:
 * each check re-reads it (cached by mtime and size), and each change re-reads, merges and writes it under the
 * file's lock (`waitForLockAsync`), so two processes never undo each other's changes. A file that cannot be read
 * (corrupt, or from a newer version) is an error, never "no rules": a check then asks, and a change refuses to
 * write over it. A workspace may add rules that only tighten (deny, ask) in `.acp-threads/permissions.json`.
 * With no directory everything stays in memory (tests).
 *
 * Every file call is asynchronous: a check runs on the extension host's thread for each permission request, and
 * the audit log is appended once per decision (records queued while a write is under way go in the next one).
 */
import { createHash, randomBytes } from "node:crypto";
import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import { waitForLockAsync } from "../platform/file-lock";
import { atomicWriteFile } from "./disk-workspace-files";
import { EVERYWHERE, type RememberedRule, type RuleEffect } from "../model/permission-rule";
import { inScope, parseRule, ruleText, type ScopedRule } from "./permission-rules";

export { EVERYWHERE, inScope } from "./permission-rules";
export type { RememberedRule } from "../model/permission-rule";

export const PERMISSIONS_FILE = "permissions.json";
export const AUDIT_FILE = "audit.jsonl";
/** A workspace's own rules (deny and ask only), relative to the workspace folder. */
export const WORKSPACE_RULES_FILE = join(".acp-threads", "permissions.json");
/** Version 3 added `effect` (allow/ask/deny) and the agent "*"; versions 1 and 2 are read as allow rules. */
const RULES_VERSION = 3;
/** How long a change waits for another process holding the rules file's lock. */
const LOCK_WAIT_MS = 5_000;

export type RuleInput = Pick<RememberedRule, "agentId" | "kind" | "key" | "scope"> & { effect?: RuleEffect };

/** A rule as the decision engine takes it. */
export function scoped(r: RememberedRule): ScopedRule & { id: string } {
  return { id: r.id, effect: r.effect, kind: r.kind, pattern: r.key, agentId: r.agentId, scope: r.scope };
}

export interface AuditRecord {
  at: string;
  agentId: string;
  sessionId: string;
  toolCallId: string;
  title: string;
  kind: string;
  path: string;
  policy: string;
  decidedBy: string;
  optionKind: string | null;
  optionId: string | null;
  /** The readable rule that decided, when one did. */
  rule?: string;
  /** Why, in words ("allowed by rule: npm test", "asked: outside the workspace"). */
  reason?: string;
  /** The request's paths outside the session's roots. */
  outside?: string[];
}

/** The audit writes under way in this process (each store's queue tail). */
const auditWrites = new Set<Promise<void>>();

export class PermissionStore {
  readonly #dir: string | undefined;
  /** In-memory rules (no directory), or the last read of the file with what it was read at. */
  #rules: RememberedRule[] = [];
  #seen = "";
  /** Audit lines waiting for the write under way, and that write. */
  #auditQueue: string[] = [];
  #auditTail: Promise<void> = Promise.resolve();
  #auditDirMade = false;
  /** The last read of each workspace's rules file, with what it was read at. */
  readonly #workspaceSeen = new Map<string, { stamp: string; rules: (ScopedRule & { id: string })[] }>();

  constructor(dir?: string) {
    this.#dir = dir;
  }

  get rulesFile(): string | undefined {
    return this.#dir && join(this.#dir, PERMISSIONS_FILE);
  }

  get auditFile(): string | undefined {
    return this.#dir && join(this.#dir, AUDIT_FILE);
  }

  /** Every rule, as the file says now (throws when the file cannot be read). */
  async rules(): Promise<RememberedRule[]> {
    return (await this.#current()).map((r) => ({ ...r }));
  }

  /**
   * The rules that hold for a request in `workspace`: this data home's, then the workspace's own
   * (`.acp-threads/permissions.json`, its allow rules ignored: a workspace only tightens). Throws when either
   * file cannot be read, so a lost deny rule is never read as "no rule".
   */
  async rulesFor(workspace: string): Promise<(ScopedRule & { id: string })[]> {
    const mine = (await this.#current()).map(scoped);
    return [...mine, ...(await this.#workspaceRules(workspace))];
  }

  /** The allow rule of `agentId` for exactly `kind` on `key` in `workspace` (in this data home), if any. */
  async find(agentId: string, kind: string, key: string, workspace: string): Promise<RememberedRule | undefined> {
    return (await this.#current()).find(
      (r) =>
        r.effect === "allow" &&
        r.agentId === agentId &&
        r.kind === kind &&
        r.key === key &&
        inScope(r.scope, workspace),
    );
  }

  /** Adds a rule (merged with what other processes wrote); returns it, or the equal one already there. */
  async remember(input: RuleInput): Promise<RememberedRule> {
    const { effect, kind, pattern } = ruleText(input.effect ?? "allow", input.kind, input.key);
    const rule = { effect, agentId: input.agentId, kind, key: pattern, scope: input.scope };
    let out: RememberedRule | undefined;
    await this.#change((rules) => {
      out = rules.find(
        (r) =>
          r.effect === rule.effect &&
          r.agentId === rule.agentId &&
          r.kind === rule.kind &&
          r.key === rule.key &&
          r.scope === rule.scope,
      );
      if (out) return rules;
      out = { id: newId(rules), ...rule, createdAt: new Date().toISOString() };
      return [...rules, out];
    });
    return out!;
  }

  /** Forgets the rules with these ids; returns the ones removed. */
  async revokeIds(ids: readonly string[]): Promise<RememberedRule[]> {
    return await this.#remove((r) => ids.includes(r.id));
  }

  /**
   * Forgets the rules with these ids, all or none: when one of them is not in the file (now, under its lock), a
   * `not_found` error names those and nothing is removed.
   */
  async revokeListed(ids: readonly string[]): Promise<RememberedRule[]> {
    let removed: RememberedRule[] = [];
    await this.#change((rules) => {
      const unknown = [...new Set(ids)].filter((id) => !rules.some((r) => r.id === id));
      if (unknown.length)
        throw new AcpThreadsError("not_found", `no remembered permission ${unknown.join(", ")}`, { unknown });
      removed = rules.filter((r) => ids.includes(r.id));
      return removed.length ? rules.filter((r) => !ids.includes(r.id)) : rules;
    });
    return removed;
  }

  /** Forgets every rule of one agent; returns how many were removed. */
  async revoke(agentId: string): Promise<number> {
    return (await this.#remove((r) => r.agentId === agentId)).length;
  }

  async revokeAll(): Promise<number> {
    return (await this.#remove(() => true)).length;
  }

  /**
   * Appends one decision to the audit log (asynchronously: records queued while a write is under way go together
   * in the next one). Resolves once written; the write that fails rejects for the first record it held.
   */
  audit(record: AuditRecord): Promise<void> {
    if (!this.#dir) return Promise.resolve();
    this.#auditQueue.push(JSON.stringify(record) + "\n");
    const write = this.#auditTail.then(() => this.#writeAudit());
    const tail = (this.#auditTail = write.catch(() => undefined));
    auditWrites.add(tail);
    tail.finally(() => auditWrites.delete(tail)).catch(() => undefined);
    return write;
  }

  /** Resolves once every audit record given so far is written (or its write failed). */
  async flushAudit(): Promise<void> {
    await this.#auditTail;
  }

  /** Resolves once every audit write this process started, in any store, has ended (a CLI run before it returns). */
  static async auditSettled(): Promise<void> {
    while (auditWrites.size) await Promise.all(auditWrites);
  }

  async #writeAudit(): Promise<void> {
    const lines = this.#auditQueue.splice(0);
    if (!lines.length) return;
    if (!this.#auditDirMade) await mkdir(this.#dir!, { recursive: true });
    this.#auditDirMade = true;
    await appendFile(join(this.#dir!, AUDIT_FILE), lines.join(""), { mode: 0o600 });
  }

  async #remove(match: (r: RememberedRule) => boolean): Promise<RememberedRule[]> {
    let removed: RememberedRule[] = [];
    await this.#change((rules) => {
      removed = rules.filter(match);
      return removed.length ? rules.filter((r) => !match(r)) : rules;
    });
    return removed;
  }

  /** Re-reads the file under its lock, applies `edit`, and writes it back when it changed. */
  async #change(edit: (rules: RememberedRule[]) => RememberedRule[]): Promise<void> {
    const file = this.rulesFile;
    if (!file) {
      this.#rules = edit(this.#rules);
      return;
    }
    await mkdir(this.#dir!, { recursive: true });
    const release = await waitForLockAsync(file, {
      label: "permission rules",
      pollMs: 20,
      signal: AbortSignal.timeout(LOCK_WAIT_MS),
    }).catch((err: unknown) => {
      throw new AcpThreadsError("locked", `could not lock ${file} to save a permission rule: ${String(err)}`);
    });
    try {
      this.#seen = "";
      const before = await this.#current();
      const after = edit(before);
      if (after === before) return;
      await atomicWriteFile(file, JSON.stringify({ version: RULES_VERSION, rules: after }, null, 2) + "\n", 0o600);
      this.#seen = "";
    } finally {
      await release();
    }
  }

  async #workspaceRules(workspace: string): Promise<(ScopedRule & { id: string })[]> {
    const file = join(workspace, WORKSPACE_RULES_FILE);
    const stamp = await stampOf(file);
    const seen = this.#workspaceSeen.get(workspace);
    if (seen?.stamp === stamp) return seen.rules;
    const rules = stamp === "missing" ? [] : await loadWorkspaceRules(file, workspace);
    this.#workspaceSeen.set(workspace, { stamp, rules });
    return rules;
  }

  async #current(): Promise<RememberedRule[]> {
    const file = this.rulesFile;
    if (!file) return this.#rules;
    const stamp = await stampOf(file);
    if (stamp !== this.#seen) {
      this.#rules = stamp === "missing" ? [] : await loadRules(file);
      this.#seen = stamp;
    }
    return this.#rules;
  }
}

async function stampOf(file: string): Promise<string> {
  try {
    const st = await stat(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return "missing";
  }
}

function newId(rules: readonly RememberedRule[]): string {
  for (;;) {
    const id = randomBytes(3).toString("hex");
    if (!rules.some((r) => r.id === id)) return id;
  }
}

function stableId(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 6);
}

async function readRulesFile(file: string): Promise<{ version?: unknown; rules?: unknown }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new AcpThreadsError(
      "corrupt",
      `the permission rules in ${file} cannot be read (${String(err)}): fix or remove the file`,
    );
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new AcpThreadsError(
      "corrupt",
      `the permission rules in ${file} are not a JSON object: fix or remove the file`,
    );
  }
  const out = parsed as { version?: unknown; rules?: unknown };
  if (typeof out.version === "number" && out.version > RULES_VERSION) {
    throw new AcpThreadsError(
      "unsupported_version",
      `the permission rules in ${file} are version ${out.version}, newer than this version of ACP Threads reads (${RULES_VERSION}): update it`,
    );
  }
  return out;
}

async function loadRules(file: string): Promise<RememberedRule[]> {
  const parsed = await readRulesFile(file);
  if (!Array.isArray(parsed.rules)) return [];
  const out: RememberedRule[] = [];
  for (const r of parsed.rules as Record<string, unknown>[]) {
    if (!r || typeof r !== "object" || typeof r.agentId !== "string" || typeof r.kind !== "string") continue;
    // Version 1 keyed rules by `path`, "*" when a request named none: that wildcard is never honoured.
    // A version 2 `execute` key ("git status", once program and subcommand) is now the exact line: never wider.
    const key = typeof r.key === "string" ? r.key : typeof r.path === "string" ? r.path : "";
    if (!key || key === "*") continue;
    const effect: RuleEffect = r.effect === "deny" || r.effect === "ask" ? r.effect : "allow";
    out.push({
      // a version 1 rule has no id: derive a stable one until the file is next written
      id: typeof r.id === "string" && r.id ? r.id : stableId(r.agentId, r.kind, key),
      effect,
      agentId: r.agentId,
      kind: r.kind,
      key,
      scope: typeof r.scope === "string" && r.scope ? r.scope : EVERYWHERE,
      createdAt: typeof r.createdAt === "string" ? r.createdAt : "",
    });
  }
  return out;
}

/**
 * A workspace's rules: `{ "rules": ["deny edit \"**\/.env\"", { "rule": "ask execute \"npm publish\"", "agent": "codex" }] }`.
 * They hold in that workspace only; allow rules are ignored (an agent can write this file: it may only tighten).
 */
async function loadWorkspaceRules(file: string, workspace: string): Promise<(ScopedRule & { id: string })[]> {
  const parsed = await readRulesFile(file);
  const out: (ScopedRule & { id: string })[] = [];
  for (const entry of Array.isArray(parsed.rules) ? (parsed.rules as unknown[]) : []) {
    const text = typeof entry === "string" ? entry : (entry as { rule?: unknown } | null)?.rule;
    const agent = typeof entry === "object" && entry ? (entry as { agent?: unknown }).agent : undefined;
    if (typeof text !== "string") continue;
    let rule;
    try {
      rule = parseRule(text);
    } catch (err) {
      throw new AcpThreadsError("corrupt", `${file}: ${String((err as Error).message)}`);
    }
    if (rule.effect === "allow") continue;
    out.push({
      id: `ws:${stableId(text, typeof agent === "string" ? agent : "*")}`,
      ...rule,
      agentId: typeof agent === "string" && agent ? agent : "*",
      scope: workspace,
    });
  }
  return out;
}
