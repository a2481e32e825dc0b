/**
 * What a sandboxed agent may touch, as plain data (#34). `buildSandboxPolicy` is pure: it joins the session's
 * roots, the agent's own state folders (agent-state.ts), the system temp folder and the user's settings into
 * one `SandboxPolicy`; prepare.ts resolves it against the disk and bwrap.ts / seatbelt.ts turn it into the
 * platform's sandbox. Reads stay open everywhere except the secrets in `denyRead`; writes only where listed.
 */
import { AcpThreadsError } from "../errors";
import { DATA_HOME_SANDBOX_READABLE } from "../platform/data-home";
import type { SandboxSettings } from "../model/sandbox";
import { HOST_PLATFORM, type Platform } from "../platform/host";
import { agentStateFolders } from "./agent-state";
import { parseAllowedHosts } from "./hosts";

export const SANDBOX_MODES = ["off", "workspace-write"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export interface SandboxPolicy {
  /** The session's roots (workspace folders or its worktree, `additionalDirectories`): writable. */
  roots: string[];
  /** Other writable folders and files: the system temp folder, the agent's state, the user's extras. */
  writable: string[];
  /** Folders and files the agent must not read (secrets, the data home). */
  denyRead: string[];
  /** Folders inside a denied one that the agent reads (the data home's installed agents and runtimes). */
  readOnly: string[];
  /** `all` (default: agents must reach their model) or limited to `allowedHosts`. */
  network: "all" | "allow-list";
  /** Validated entries (hosts.ts): what the egress proxy lets through. */
  allowedHosts: string[];
  /** The system temp folder: the egress proxy's private folder goes below it. */
  tmpDir: string;
}

/** A policy's paths resolved on this machine (plan.ts): what the platform builders mount or list. */
export interface SandboxMounts {
  /** Real paths of the roots and writable entries that exist. */
  writable: string[];
  /**
   * Denied paths that exist (and their real paths), with whether each is a folder; `hidden`: a file whose folder
   * is hidden whole on Linux (`hiddenFolders`), so it has no mount of its own there.
   */
  denyRead: { path: string; dir: boolean; hidden?: boolean }[];
  /** Linux: folders hidden whole because they hold a denied file, their other entries shown again (hidden-folders.ts). */
  hiddenFolders?: HiddenFolder[];
  /** Real paths of the `readOnly` folders that exist: shown again, read-only, inside what is denied. */
  readOnly: string[];
  /** With allowed hosts: where the egress proxy listens (plan.ts starts it); none: the network is the host's. */
  egress?: SandboxEgress;
}

/** A folder hidden whole (Linux) and its entries shown again: bound read-only, or made again as the same symlink. */
export interface HiddenFolder {
  path: string;
  entries: { path: string; link?: string }[];
}

/**
 * Linux: the proxy's socket in `dir`, a private folder below `hidden` (every session's proxies; hidden inside the
 * sandbox but for its own). macOS: the proxy's port on the loopback.
 */
export type SandboxEgress =
  { kind: "socket"; hidden: string; dir: string; socket: string } | { kind: "port"; port: number };

export interface SandboxPolicyInput {
  /** Workspace roots (the first is the session's cwd) and `additionalDirectories`. */
  roots: readonly string[];
  agentId: string;
  /** The user's home folder and environment (the agents' state folders follow `$CODEX_HOME`, ...). */
  home: string;
  env: NodeJS.ProcessEnv;
  /** The system temp folder (`os.tmpdir()`). */
  tmpDir: string;
  /** Our data home: its threads, ledger, traffic and indexes are other threads' data. */
  dataHome?: string;
  settings?: SandboxSettings;
  platform?: Platform;
}

/**
 * Secrets below the home folder that no agent needs to read. Folders where we can: a file alone is hidden on Linux
 * by hiding the folder it is in and showing the folder's other entries again (hidden-folders.ts), since a mount over
 * the file itself falls off when the file is replaced outside. `.netrc` has no folder of its own.
 */
export const HOME_SECRETS = [".ssh", ".gnupg", ".aws", ".config/gh", ".netrc", ".docker", ".kube"];
/**
 * Sockets that hand out the user's powers without reading a file: the ssh agent signs with the user's keys, the
 * docker daemon is root. A read-only mount does not stop `connect()`, so they are hidden like secrets.
 */
export const POWER_SOCKETS = ["/run/docker.sock", "/var/run/docker.sock"];

/** A path's rule and its rank among the rules of the same depth: writable 0, denied 1, read-only again 2. */
export interface PathRule {
  path: string;
  order: number;
}

const depth = (path: string) => path.split(/[\\/]/).filter(Boolean).length;

/**
 * Rules shallow to deep (then writable, denied, read-only), the order both sandboxes take them in: a later, deeper
 * rule wins (bwrap mounts over the earlier one, Seatbelt takes the last match), so a secret inside a root stays
 * hidden and a root or a shown folder inside a hidden one stays usable.
 */
export function shallowToDeep<R extends PathRule>(rules: R[]): R[] {
  return rules.sort((a, b) => depth(a.path) - depth(b.path) || a.order - b.order || a.path.localeCompare(b.path));
}

/** `~/x` and `~` → below `home`; anything else must be absolute. */
export function expandHome(path: string, home: string, p: Platform = HOST_PLATFORM): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return p.path.join(home, path.slice(2));
  if (!p.path.isAbsolute(path)) {
    throw new AcpThreadsError("usage", `sandbox path must be absolute or start with ~/: '${path}'`);
  }
  return p.path.normalize(path);
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

export function buildSandboxPolicy(input: SandboxPolicyInput): SandboxPolicy {
  const p = input.platform ?? HOST_PLATFORM;
  const at = (path: string) => expandHome(path, input.home, p);
  const settings = input.settings ?? {};
  const writable = [
    input.tmpDir,
    ...agentStateFolders(input.agentId, input.home, input.env, p),
    ...(settings.writable ?? []).map(at),
  ];
  const denyRead = [
    ...HOME_SECRETS.map((s) => p.path.join(input.home, s)),
    ...(input.env.SSH_AUTH_SOCK ? [input.env.SSH_AUTH_SOCK] : []),
    ...POWER_SOCKETS,
    // the data home as one folder (see HOME_SECRETS for why not its files), its agents and runtimes shown again
    ...(input.dataHome ? [input.dataHome] : []),
    ...(settings.denyRead ?? []).map(at),
  ];
  const readOnly = input.dataHome ? DATA_HOME_SANDBOX_READABLE.map((s) => p.path.join(input.dataHome!, s)) : [];
  const allowedHosts = unique((settings.allowedHosts ?? []).map((h) => h.trim()).filter(Boolean));
  parseAllowedHosts(allowedHosts); // a bad entry is an error here, before anything is probed or started
  return {
    roots: unique(input.roots.map((r) => p.path.normalize(r))),
    writable: unique(writable.map((w) => p.path.normalize(w))),
    denyRead: unique(denyRead),
    readOnly: unique(readOnly.map((r) => p.path.normalize(r))),
    network: allowedHosts.length ? "allow-list" : "all",
    allowedHosts,
    tmpDir: p.path.normalize(input.tmpDir),
  };
}
