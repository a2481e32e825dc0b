/**
 * The ACP Agent Registry (`registry.json`, one entry per agent) and the agents installed from it.
 * This file is the contract between the registry core (`src/core/registry/*`), the CLI (`acp-threads agents`) and
 * the editor's "Add agent…" flow; the core implements the functions documented at the end.
 */

/** The platforms a `binary` distribution may name. */
export const REGISTRY_PLATFORMS = [
  "darwin-aarch64",
  "darwin-x86_64",
  "linux-aarch64",
  "linux-x86_64",
  "windows-aarch64",
  "windows-x86_64",
] as const;
export type RegistryPlatform = (typeof REGISTRY_PLATFORMS)[number];

/** `npx: {package, cmd?, args?, env?}` / `uvx: {…}`: `package` carries the pinned version (`name@1.2.3`, `name==1.2.3`). */
export interface PackageDistribution {
  package: string;
  cmd?: string;
  args?: string[];
  env?: Record<string, string>;
}

/** One platform's archive (`.zip .tar.gz .tgz .tar.bz2 .tbz2` or a raw binary) and the command inside it. */
export interface BinaryTarget {
  archive: string;
  cmd: string;
  args?: string[];
  env?: Record<string, string>;
  sha256?: string;
}

export interface RegistryDistribution {
  npx?: PackageDistribution;
  uvx?: PackageDistribution;
  binary?: Partial<Record<RegistryPlatform, BinaryTarget>>;
}

/** An entry of `registry.json` as validated by the core (unknown fields dropped). */
export interface RegistryAgent {
  id: string;
  name: string;
  version: string;
  description: string;
  distribution: RegistryDistribution;
  repository?: string;
  website?: string;
  authors?: string[];
  license?: string;
  /** URL (or data: URI) of a 16×16 SVG using currentColor. */
  icon?: string;
}

export interface RegistryIndex {
  version: string;
  agents: RegistryAgent[];
}

/** Where the index came from: the network, the last good copy cached in the data home, or the bundled snapshot. */
export interface RegistryListing {
  index: RegistryIndex;
  source: "network" | "cache" | "snapshot";
  url: string;
  /** Why the network copy was not used (shown to the user with source "cache" / "snapshot"). */
  error?: string;
  /** Entries that failed validation, with why (not offered for install). */
  rejected: { id: string; reason: string }[];
}

export type InstallKind = "npx" | "uvx" | "binary";

/** How an agent signs its user in (ACP `authMethods[].type`; no type = "agent"). */
export type AuthKind = "agent" | "terminal" | "env_var";

/** An agent installed into `<data home>/agents/<id>/`, recorded in `<data home>/agents/installed.json`. */
export interface InstalledAgent {
  id: string;
  name: string;
  version: string;
  description: string;
  kind: InstallKind;
  /** Folder that holds this install (`<data home>/agents/<id>/<version>`). */
  dir: string;
  /** Absolute command to spawn (a node script is launched through the runtime the package's engines ask for). */
  command: string;
  args: string[];
  /** npx installs: the package's `engines.node` range (for choosing the Node that runs `command`). */
  nodeEngine?: string;
  /** The registry entry's own env (never user secrets). */
  env?: Record<string, string>;
  license?: string;
  icon?: string;
  /** The kinds of the `authMethods` its `initialize` advertised after the install ([] = no sign-in); absent when
   *  the probe failed or the install predates it. */
  auth?: AuthKind[];
  registryUrl: string;
  installedAt: string;
}

export interface InstallProgress {
  phase: "download" | "verify" | "extract" | "npm" | "uv" | "runtime" | "probe" | "done";
  message: string;
  /** 0..1 when known. */
  fraction?: number;
}

/*
 * The core (src/core/registry/) exports:
 *   resolveRegistryUrl(opts: {flag?: string; env?: NodeJS.ProcessEnv; setting?: string}): string
 *   fetchRegistry(opts: {url: string; dataHome: string; timeoutMs?: number; signal?: AbortSignal}): Promise<RegistryListing>
 *   listInstalled(dataHome: string): InstalledAgent[]
 *   installAgent(agent: RegistryAgent, opts: {dataHome: string; registryUrl: string; platform?: RegistryPlatform;
 *                onProgress?: (p: InstallProgress) => void; signal?: AbortSignal}): Promise<InstalledAgent>
 *   uninstallAgent(id: string, dataHome: string): boolean
 *   updateFor(installed: InstalledAgent, index: RegistryIndex): RegistryAgent | null   // newer version available
 *   installedAgentSpec(installed: InstalledAgent): AgentSpec                          // for spawning like a preset
 * Added by the implementation (all re-exported by src/core/registry/index.ts):
 *   updateAgent(installed, index, opts = installAgent's): Promise<InstalledAgent | null>  // null: already current
 *   findInstalled(dataHome, id): InstalledAgent | undefined
 *   installedSpecForAsync(dataHome, id): Promise<AgentSpec | undefined>  // pass `installed: (id) =>
 *                           // installedSpecForAsync(home, id)` to resolveAgent (core/acp cannot import this stage)
 *   installKindFor(agent, platform): InstallKind             // which distribution installAgent will use
 *   hostRegistryPlatform(): RegistryPlatform | undefined; agentsLayout(dataHome) (cacheFile, installedFile, dirs)
 *   DEFAULT_REGISTRY_URL, REGISTRY_URL_ENV ("ACP_THREADS_REGISTRY_URL"); HomeSettings.registryUrl (store/home-settings)
 * Errors are AcpThreadsError: "not_found" (no build for this platform, no such command), "corrupt" (sha256
 * mismatch), "usage" (cmd escapes the install folder), "agent_not_found" (npm / uv missing), "locked".
 */
