/**
 * Remembered `allow_always` decisions (per agent, tool kind and path) and the permission audit log.
 *
 * Rules live in one JSON file written atomically with mode 0600; the audit log is append-only JSONL. With no
 * directory everything stays in memory (tests, throwaway runs).
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile } from "./disk-workspace-files";

export const PERMISSIONS_FILE = "permissions.json";
export const AUDIT_FILE = "audit.jsonl";
const RULES_VERSION = 1;

export interface RememberedRule {
  agentId: string;
  kind: string;
  /** The path the decision was made for; "*" when the request named none. */
  path: string;
  createdAt: string;
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
}

export class PermissionStore {
  readonly #dir: string | undefined;
  #rules: RememberedRule[];
  /** Serializes file writes so a quick revoke after a remember cannot be overtaken. */
  #writing: Promise<void> = Promise.resolve();

  constructor(dir?: string) {
    this.#dir = dir;
    this.#rules = dir ? loadRules(join(dir, PERMISSIONS_FILE)) : [];
  }

  get rulesFile(): string | undefined {
    return this.#dir && join(this.#dir, PERMISSIONS_FILE);
  }

  get auditFile(): string | undefined {
    return this.#dir && join(this.#dir, AUDIT_FILE);
  }

  rules(): RememberedRule[] {
    return this.#rules.map((r) => ({ ...r }));
  }

  isRemembered(agentId: string, kind: string, path: string): boolean {
    return this.#rules.some((r) => r.agentId === agentId && r.kind === kind && r.path === path);
  }

  async remember(agentId: string, kind: string, path: string): Promise<void> {
    if (this.isRemembered(agentId, kind, path)) return;
    this.#rules.push({ agentId, kind, path, createdAt: new Date().toISOString() });
    await this.#save();
  }

  /** Forgets every remembered decision for one agent; returns how many were removed. */
  async revoke(agentId: string): Promise<number> {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.agentId !== agentId);
    await this.#save();
    return before - this.#rules.length;
  }

  async revokeAll(): Promise<number> {
    const count = this.#rules.length;
    this.#rules = [];
    await this.#save();
    return count;
  }

  audit(record: AuditRecord): void {
    if (!this.#dir) return;
    mkdirSync(this.#dir, { recursive: true });
    appendFileSync(join(this.#dir, AUDIT_FILE), JSON.stringify(record) + "\n", { mode: 0o600 });
  }

  #save(): Promise<void> {
    const file = this.rulesFile;
    if (!file) return Promise.resolve();
    const body = JSON.stringify({ version: RULES_VERSION, rules: this.#rules }, null, 2) + "\n";
    this.#writing = this.#writing.then(() => atomicWriteFile(file, body, 0o600));
    return this.#writing;
  }
}

function loadRules(file: string): RememberedRule[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  try {
    const parsed = JSON.parse(text) as { version?: number; rules?: unknown };
    if (parsed.version !== RULES_VERSION || !Array.isArray(parsed.rules)) return [];
    return parsed.rules.filter(
      (r): r is RememberedRule =>
        typeof r === "object" &&
        r !== null &&
        typeof r.agentId === "string" &&
        typeof r.kind === "string" &&
        typeof r.path === "string",
    );
  } catch {
    // A corrupt rules file must not block the agent: start with no remembered decisions.
    return [];
  }
}
