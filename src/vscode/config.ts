/**
 * Typed access to the `acpThreads.*` settings; the engine receives plain values, never reads settings.
 * Settings that widen what agents may do (USER_ONLY_SETTINGS, `application` scope) are read from the user's
 * settings and the defaults only: a repository's `.vscode/settings.json` cannot set `approve-all` or an agent
 * command. Their manifest scope says so too, but VS Code still applies a workspace value of a setting an older
 * manifest declared otherwise, so the reads enforce it; `ignoredWorkspaceSettings` names what a workspace tried.
 */
import * as vscode from "vscode";
import { runSessionsWhere } from "../core/host/door";
import type { AgentSpec, PermissionPolicy } from "../core/model/agent";
import { PERMISSION_POLICIES } from "../core/model/agent";

export const SECTION = "acpThreads";

export interface DemoProfile {
  label: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

interface CustomAgentSetting {
  command?: unknown;
  args?: unknown;
  env?: unknown;
  displayName?: unknown;
}

const stringRecord = (v: unknown): Record<string, string> | undefined => {
  if (!v || typeof v !== "object") return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === "string") out[k] = val;
  return out;
};

/**
 * Settings a workspace must not set: the permission policy, the commands and env agents are started with, the
 * Node that runs them, tools offered to agents, the watchdog's retries without asking, the OS sandbox (#34), and
 * the command run when a turn ends (#35).
 */
export const USER_ONLY_SETTINGS = [
  "permissionMode",
  "agents",
  "demoProfile",
  "nodePath",
  "registry.url",
  "recall.offerToAgents",
  "watchdog.retry",
  "sandbox.mode",
  "sandbox.denyRead",
  "sandbox.allowedHosts",
  "sandbox.unattended",
  "hooks.turnEnded",
] as const;

const USER_ONLY: ReadonlySet<string> = new Set(USER_ONLY_SETTINGS);

export class Config {
  #get<T>(key: string, fallback: T): T {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    if (!USER_ONLY.has(key)) return cfg.get<T>(key, fallback) ?? fallback;
    const seen = cfg.inspect<T>(key);
    return seen?.globalValue ?? seen?.defaultValue ?? fallback;
  }

  /** The user-only settings (as `acpThreads.<key>`) this workspace's or its folders' settings try to set. */
  get ignoredWorkspaceSettings(): string[] {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const tried = (key: string) => {
      const seen = cfg.inspect(key);
      return [seen?.workspaceValue, seen?.workspaceFolderValue].some((v) => v !== undefined);
    };
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.workspace.getConfiguration(SECTION, f));
    const inFolder = (key: string) => folders.some((c) => c.inspect(key)?.workspaceFolderValue !== undefined);
    return USER_ONLY_SETTINGS.filter((k) => tried(k) || inFolder(k)).map((k) => `${SECTION}.${k}`);
  }

  /** `acpThreads.hooks.turnEnded`: the command run with each turn_ended event on its stdin (empty: none). */
  get turnEndedHook(): string {
    const v = this.#get<unknown>("hooks.turnEnded", "");
    return typeof v === "string" ? v : "";
  }

  /** Whether deleting a thread deletes its agent's session too (`session/delete`). */
  get deleteAgentSession(): "ask" | "always" | "never" {
    const v = this.#get<string>("deleteAgentSession", "ask");
    return v === "always" || v === "never" ? v : "ask";
  }

  get permissionMode(): PermissionPolicy {
    const v = this.#get<string>("permissionMode", "approve-reads");
    return (PERMISSION_POLICIES as readonly string[]).includes(v) ? (v as PermissionPolicy) : "approve-reads";
  }

  get execTtlMinutes(): number {
    const v = this.#get<number>("exec.ttlMinutes", 60);
    return Number.isFinite(v) && v > 0 ? v : 60;
  }

  /**
   * `acpThreads.host.runSessions`: where new agent threads of this window run (#35), resolved: `auto` (the default)
   * is the host where its door is the user's alone (door.ts `runSessionsWhere`), else this window.
   */
  get hostRunSessions(): "window" | "host" {
    return runSessionsWhere(this.#get<string>("host.runSessions", "auto"));
  }

  /** `acpThreads.host.idleMinutes`: how long the thread host stays with no session and no client. */
  get hostIdleMinutes(): number {
    const v = this.#get<number>("host.idleMinutes", 10);
    return Number.isFinite(v) && v > 0 ? v : 10;
  }

  /** Seconds without any update during a turn before the watchdog calls it stalled (0: off). */
  get watchdogStallSeconds(): number {
    const v = this.#get<number>("watchdog.stallSeconds", 180);
    return Number.isFinite(v) && v >= 0 ? v : 180;
  }

  /** offer: the panel offers the retry ladder; auto: it climbs by itself. */
  get watchdogRetry(): "offer" | "auto" {
    return this.#get<string>("watchdog.retry", "offer") === "auto" ? "auto" : "offer";
  }

  /** Keep each thread's protocol traffic (redacted) for bug bundles. */
  get recordTraffic(): boolean {
    return this.#get<boolean>("recordTraffic", true) !== false;
  }

  /** `acpThreads.traffic.maxTotalMB`: cap on all threads' protocol traffic files together (0: no cap). */
  get trafficMaxTotalMB(): number {
    const v = this.#get<number>("traffic.maxTotalMB", 512);
    return Number.isFinite(v) && v >= 0 ? v : 512;
  }

  /** `acpThreads.nodePath`: the Node for agents the default one is too old for (empty: none). */
  get nodePath(): string | undefined {
    const v = this.#get<string>("nodePath", "");
    return typeof v === "string" && v.trim() ? v.trim() : undefined;
  }

  /** `acpThreads.sandbox.mode`: every session and exec run in the OS sandbox (`workspace-write`), or not (`off`). */
  get sandbox(): "off" | "workspace-write" {
    return this.#get<string>("sandbox.mode", "off") === "workspace-write" ? "workspace-write" : "off";
  }

  /** `acpThreads.sandbox.denyRead`: further folders and files a sandboxed agent cannot read. */
  get sandboxDenyRead(): string[] {
    const v = this.#get<unknown>("sandbox.denyRead", []);
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === "string" && !!p.trim()) : [];
  }

  /** `acpThreads.sandbox.allowedHosts`: the hosts a sandboxed agent may reach (empty: the network stays open). */
  get sandboxAllowedHosts(): string[] {
    const v = this.#get<unknown>("sandbox.allowedHosts", []);
    return Array.isArray(v) ? v.filter((h): h is string => typeof h === "string" && !!h.trim()) : [];
  }

  /** `acpThreads.sandbox.unattended`: Best of N and worktree sessions are sandboxed where the machine can. */
  get sandboxUnattended(): boolean {
    return this.#get<boolean>("sandbox.unattended", true) !== false;
  }

  get recallOfferToAgents(): boolean {
    return this.#get<boolean>("recall.offerToAgents", false) === true;
  }

  /** Custom agents from `acpThreads.agents`; malformed entries are skipped (reported by `invalidAgents`). */
  get customAgents(): AgentSpec[] {
    const raw = this.#get<Record<string, CustomAgentSetting>>("agents", {});
    const out: AgentSpec[] = [];
    for (const [id, v] of Object.entries(raw ?? {})) {
      if (!v || typeof v.command !== "string" || !v.command.trim()) continue;
      const args = Array.isArray(v.args) ? v.args.filter((a): a is string => typeof a === "string") : [];
      const displayName = typeof v.displayName === "string" ? v.displayName : id;
      out.push({ id, displayName, command: v.command, args, env: stringRecord(v.env) });
    }
    return out;
  }

  get invalidAgents(): string[] {
    const raw = this.#get<Record<string, CustomAgentSetting>>("agents", {});
    return Object.entries(raw ?? {})
      .filter(([, v]) => !v || typeof v.command !== "string" || !v.command.trim())
      .map(([id]) => id);
  }

  /** `acpThreads.registry.url`: a mirror or an enterprise copy of the ACP Registry ("" for the official one). */
  get registryUrl(): string | undefined {
    const v = this.#get<string>("registry.url", "");
    return typeof v === "string" && v.trim() ? v.trim() : undefined;
  }

  get demoProfile(): DemoProfile | undefined {
    const v = this.#get<Partial<DemoProfile> | null>("demoProfile", null);
    if (!v || typeof v.command !== "string" || typeof v.label !== "string") return undefined;
    const args = Array.isArray(v.args) ? v.args.filter((a): a is string => typeof a === "string") : [];
    return { label: v.label, command: v.command, args, env: stringRecord(v.env) };
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) listener();
    });
  }
}
