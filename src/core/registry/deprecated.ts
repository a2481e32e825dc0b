/**
 * Registry entries whose adapter has been superseded: the package was renamed (the frozen `@zed-industries/…`
 * names) or deprecated (claude-code-acp, replaced by claude-agent-acp). The registry still lists some of them, and
 * a bundled snapshot or an older cached copy may too. Such an entry is marked (with the package to use instead) and
 * is never preferred over a current preset: the agent lists put it after every other agent.
 */
import type { InstalledAgent, RegistryAgent } from "./types";

export interface Deprecation {
  /** The npm package that replaces it (what the preset installs). */
  successor: string;
  /** Why, in words for the lists ("renamed", "deprecated"). */
  reason: string;
}

/** npm packages superseded, by name (without version). */
export const DEPRECATED_PACKAGES: Readonly<Record<string, Deprecation>> = {
  "@zed-industries/claude-code-acp": { successor: "@agentclientprotocol/claude-agent-acp", reason: "deprecated" },
  "@zed-industries/claude-agent-acp": { successor: "@agentclientprotocol/claude-agent-acp", reason: "renamed" },
  "@zed-industries/codex-acp": { successor: "@agentclientprotocol/codex-acp", reason: "renamed" },
};

/** Source repositories of those packages (an entry that ships only binaries names no package, but its repository). */
const DEPRECATED_REPOSITORIES: Readonly<Record<string, string>> = {
  "https://github.com/zed-industries/claude-code-acp": "@zed-industries/claude-code-acp",
  "https://github.com/zed-industries/codex-acp": "@zed-industries/codex-acp",
};

/** `@scope/name@1.2.3` → `@scope/name` (the version pin of a registry `npx.package`). */
export function packageName(spec: string): string {
  const at = spec.lastIndexOf("@");
  return at > 0 ? spec.slice(0, at) : spec;
}

/** The npm package a registry entry installs, when it names one. */
export function registryPackage(agent: RegistryAgent): string | undefined {
  const p = agent.distribution.npx?.package;
  return p ? packageName(p) : undefined;
}

/** Whether (and why) a registry entry is superseded. */
export function deprecationOf(agent: RegistryAgent): Deprecation | undefined {
  const pkg = registryPackage(agent);
  if (pkg) return DEPRECATED_PACKAGES[pkg];
  const repo = agent.repository?.replace(/\.git$/, "").replace(/\/$/, "");
  const byRepo = repo ? DEPRECATED_REPOSITORIES[repo] : undefined;
  return byRepo ? DEPRECATED_PACKAGES[byRepo] : undefined;
}

/**
 * Whether an installed registry agent is superseded: its entry in `index` (same id and version) is, or its
 * command lies in a superseded package's folder (an npm install keeps `node_modules/<package>/` in the path).
 */
export function deprecationOfInstalled(
  installed: InstalledAgent,
  index?: { agents: readonly RegistryAgent[] },
): Deprecation | undefined {
  const entry = index?.agents.find((a) => a.id === installed.id && a.version === installed.version);
  const fromEntry = entry ? deprecationOf(entry) : undefined;
  if (fromEntry) return fromEntry;
  const path = installed.command.replace(/\\/g, "/");
  for (const [pkg, d] of Object.entries(DEPRECATED_PACKAGES)) if (path.includes(`/node_modules/${pkg}/`)) return d;
  return undefined;
}

/**
 * Installed registry agents in the order the agent lists show them: current ones (in the given order), then the
 * superseded ones with their deprecation. The first startable agent of a list is the default of a new thread
 * and of the handoff picker: a superseded adapter must never be that while a current one is there.
 */
export function currentFirst(
  installed: readonly InstalledAgent[],
  index?: { agents: readonly RegistryAgent[] },
): { current: InstalledAgent[]; superseded: { agent: InstalledAgent; deprecated: Deprecation }[] } {
  const current: InstalledAgent[] = [];
  const superseded: { agent: InstalledAgent; deprecated: Deprecation }[] = [];
  for (const agent of installed) {
    const deprecated = deprecationOfInstalled(agent, index);
    if (deprecated) superseded.push({ agent, deprecated });
    else current.push(agent);
  }
  return { current, superseded };
}
