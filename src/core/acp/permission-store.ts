/**
 * Remembered `allow_always` decisions and the permission audit log.
 *
 * A rule says: agent A may do KIND on KEY (a path, or a command's program and subcommand such as `npm test`) in
 * SCOPE (a workspace folder, or "*" for everywhere). Rules live in one readable JSON file per data home
 * (`permissions.json`, mode 0600) that every window and CLI process shares: each check re-reads it (cached by
 * mtime and size), and each change re-reads, merges and writes it under the file's lock (`waitForLockAsync`), so
 * two processes never undo each other's changes. With no directory everything stays in memory (tests).
 *
 * Every file call is asynchronous: a check runs on the extension host's thread for each permission request, and
 * the audit log is appended once per decision (records queued while a write is under way go in the next one).
 */
import { createHash, randomBytes } from "node:crypto";
import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { join, relative, isAbsolute } from "node:path";
import { AcpThreadsError } from "../errors";
import { waitForLockAsync } from "../platform/file-lock";
import { atomicWriteFile } from "./disk-workspace-files";

export const PERMISSIONS_FILE = "permissions.json";
export const AUDIT_FILE = "audit.jsonl";
const RULES_VERSION = 2;
/** How long a change waits for another process holding the rules file's lock. */
const LOCK_WAIT_MS = 5_000;

/** Rules hold in every workspace. */
export const EVERYWHERE = "*";

export interface RememberedRule {
  /** Short stable id (`acp-threads permissions revoke ID`). */
  id: string;
  agentId: string;
  kind: string;
  /** `execute`: "program subcommand" (`npm test`); file tools: the absolute path. Never a wildcard. */
  key: string;
  /** The workspace folder the rule holds in (and below), or "*" for everywhere. */
  scope: string;
  createdAt: string;
}

export type RuleInput = Pick<RememberedRule, "agentId" | "kind" | "key" | "scope">;

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

  constructor(dir?: string) {
    this.#dir = dir;
  }

  get rulesFile(): string | undefined {
    return this.#dir && join(this.#dir, PERMISSIONS_FILE);
  }

  get auditFile(): string | undefined {
    return this.#dir && join(this.#dir, AUDIT_FILE);
  }

  /** Every rule, as the file says now. */
  async rules(): Promise<RememberedRule[]> {
    return (await this.#current()).map((r) => ({ ...r }));
  }

  /** The rule allowing `agentId` to do `kind` on `key` in `workspace`, if any. */
  async find(agentId: string, kind: string, key: string, workspace: string): Promise<RememberedRule | undefined> {
    return (await this.#current()).find(
      (r) => r.agentId === agentId && r.kind === kind && r.key === key && inScope(r.scope, workspace),
    );
  }

  /** Adds a rule (merged with what other processes wrote); returns it, or the equal one already there. */
  async remember(rule: RuleInput): Promise<RememberedRule> {
    if (!rule.key || rule.key === "*") throw new AcpThreadsError("usage", "a remembered permission needs a key");
    let out: RememberedRule | undefined;
    await this.#change((rules) => {
      out = rules.find(
        (r) => r.agentId === rule.agentId && r.kind === rule.kind && r.key === rule.key && r.scope === rule.scope,
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

  async #current(): Promise<RememberedRule[]> {
    const file = this.rulesFile;
    if (!file) return this.#rules;
    let stamp: string;
    try {
      const st = await stat(file);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      stamp = "missing";
    }
    if (stamp !== this.#seen) {
      this.#rules = stamp === "missing" ? [] : await loadRules(file);
      this.#seen = stamp;
    }
    return this.#rules;
  }
}

/** True when a rule of `scope` holds in `workspace` (the folder itself or below it). */
export function inScope(scope: string, workspace: string): boolean {
  if (scope === EVERYWHERE) return true;
  const rel = relative(scope, workspace);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
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

async function loadRules(file: string): Promise<RememberedRule[]> {
  let parsed: { version?: number; rules?: unknown };
  try {
    parsed = JSON.parse(await readFile(file, "utf8")) as typeof parsed;
  } catch {
    // A corrupt rules file must not block the agent: no remembered decisions (it is rewritten on the next change).
    return [];
  }
  if (!Array.isArray(parsed.rules)) return [];
  const out: RememberedRule[] = [];
  for (const r of parsed.rules as Record<string, unknown>[]) {
    if (!r || typeof r !== "object" || typeof r.agentId !== "string" || typeof r.kind !== "string") continue;
    // Version 1 keyed rules by `path`, "*" when a request named none: that wildcard is never honoured.
    const key = typeof r.key === "string" ? r.key : typeof r.path === "string" ? r.path : "";
    if (!key || key === "*") continue;
    out.push({
      // a version 1 rule has no id: derive a stable one until the file is next written
      id: typeof r.id === "string" && r.id ? r.id : stableId(r.agentId, r.kind, key),
      agentId: r.agentId,
      kind: r.kind,
      key,
      scope: typeof r.scope === "string" && r.scope ? r.scope : EVERYWHERE,
      createdAt: typeof r.createdAt === "string" ? r.createdAt : "",
    });
  }
  return out;
}
