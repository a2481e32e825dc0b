/**
 * `installAgent`: puts a registry agent into `<data home>/agents/<id>/<version>` following its distribution
 * (binary for this platform, else npx, else uvx), built in a staging folder and renamed into place, then
 * recorded in installed.json. A failure removes everything it made and leaves the previous install as it was.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { AcpThreadsError, errorMessage } from "../errors";
import { binaryInstall, binaryTargetFor } from "./install-binary";
import { npmInstall } from "./install-npm";
import { uvInstall } from "./install-uv";
import { probeAuthKinds } from "./auth";
import { findInstalled, installedAgentSpec, updateInstalled } from "./installed";
import { agentsLayout } from "./layout";
import { installKindOf, registryPlatformOf } from "./platform";
import { validateAgent } from "./validate";
import type { InstallKind, InstalledAgent, InstallProgress, RegistryAgent, RegistryPlatform } from "./types";

export interface InstallOptions {
  dataHome: string;
  registryUrl: string;
  platform?: RegistryPlatform;
  onProgress?: (p: InstallProgress) => void;
  signal?: AbortSignal;
  /** Environment for npm / uv (PATH to find them); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Ask the installed agent for its auth methods (one `initialize`); default true. */
  probeAuth?: boolean;
}

/** This machine's name in the registry's `binary` table. */
export function hostRegistryPlatform(): RegistryPlatform | undefined {
  return registryPlatformOf(process.platform, process.arch);
}

/** The distribution this machine installs: its binary build, else npx, else uvx. */
export function installKindFor(agent: RegistryAgent, platform: RegistryPlatform | undefined): InstallKind {
  const kind = installKindOf(agent, platform);
  if (kind) return kind;
  binaryTargetFor(agent, platform); // throws the "no build for this platform" error
  throw new AcpThreadsError("not_found", `${agent.id} has nothing to install`);
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // best effort: a leftover staging folder is ignored and replaced next time
  }
}

/** Moves `staging` to `final`, replacing an earlier copy of the same version. */
function moveIntoPlace(staging: string, final: string): void {
  if (!existsSync(final)) return renameSync(staging, final);
  const old = `${final}.old-${randomBytes(4).toString("hex")}`;
  renameSync(final, old);
  try {
    renameSync(staging, final);
  } catch (err) {
    renameSync(old, final);
    throw err;
  }
  removeQuietly(old);
}

/** The entry as validated (an id or version that would make a path outside the agents folder is refused). */
function checked(agent: RegistryAgent): RegistryAgent {
  try {
    return validateAgent(agent);
  } catch (err) {
    throw new AcpThreadsError("usage", `not a valid registry entry: ${errorMessage(err)}`, undefined, { cause: err });
  }
}

export async function installAgent(entry: RegistryAgent, opts: InstallOptions): Promise<InstalledAgent> {
  const agent = checked(entry);
  const platform = opts.platform ?? hostRegistryPlatform();
  const kind = installKindFor(agent, platform);
  const layout = agentsLayout(opts.dataHome);
  const final = layout.versionDir(agent.id, agent.version);
  // uv writes absolute paths into the tool's environment, so it installs in place; the others go through staging
  const work = kind === "uvx" ? final : join(layout.agentDir(agent.id), `.staging-${randomBytes(4).toString("hex")}`);
  // a reinstall in place keeps the earlier copy aside until the new one is complete
  const aside = kind === "uvx" && existsSync(final) ? `${final}.old-${randomBytes(4).toString("hex")}` : undefined;
  if (aside) renameSync(final, aside);
  mkdirSync(work, { recursive: true, mode: 0o700 });
  let cmd: string;
  let args: string[];
  let env: Record<string, string> | undefined;
  let nodeEngine: string | undefined;
  try {
    if (kind === "binary") {
      const target = binaryTargetFor(agent, platform);
      cmd = await binaryInstall(agent, target, work, opts);
      ({ args = [], env } = target);
    } else if (kind === "npx") {
      const dist = agent.distribution.npx!;
      ({ script: cmd, nodeEngine } = await npmInstall(dist, work, opts));
      ({ args = [], env } = dist);
    } else {
      const dist = agent.distribution.uvx!;
      cmd = await uvInstall(dist, work, opts);
      ({ args = [], env } = dist);
    }
    if (work !== final) moveIntoPlace(work, final);
  } catch (err) {
    removeQuietly(work);
    if (aside) renameSync(aside, final);
    throw err;
  }
  if (aside) removeQuietly(aside);
  const installed: InstalledAgent = {
    id: agent.id,
    name: agent.name,
    version: agent.version,
    description: agent.description,
    kind,
    dir: final,
    command: isAbsolute(cmd) ? cmd : join(final, cmd),
    args: [...args],
    ...(nodeEngine ? { nodeEngine } : {}),
    ...(env ? { env: { ...env } } : {}),
    ...(agent.license ? { license: agent.license } : {}),
    ...(agent.icon ? { icon: agent.icon } : {}),
    registryUrl: opts.registryUrl,
    installedAt: new Date().toISOString(),
  };
  if (opts.probeAuth !== false) {
    opts.onProgress?.({ phase: "probe", message: `Asking ${agent.name} how it signs in…` });
    const probed = await probeAuthKinds(installedAgentSpec(installed), { cwd: final, env: opts.env });
    if (probed.auth) installed.auth = probed.auth;
    else opts.onProgress?.({ phase: "probe", message: `Could not read its sign-in methods: ${probed.error}` });
  }
  const previous = updateInstalled(opts.dataHome, (agents) => {
    const i = agents.findIndex((a) => a.id === agent.id);
    const before = i >= 0 ? agents[i] : undefined;
    if (i >= 0) agents[i] = installed;
    else agents.push(installed);
    return before;
  });
  if (previous && previous.dir !== final) removeQuietly(previous.dir); // an update drops the old version
  opts.onProgress?.({ phase: "done", message: `${agent.name} ${agent.version} installed`, fraction: 1 });
  return installed;
}

/** Removes the agent's folder and its record; false when it was not installed. */
export function uninstallAgent(id: string, dataHome: string): boolean {
  if (!findInstalled(dataHome, id)) return false;
  const removed = updateInstalled(dataHome, (agents) => {
    const i = agents.findIndex((a) => a.id === id);
    return i >= 0 ? agents.splice(i, 1)[0] : undefined;
  });
  if (!removed) return false;
  removeQuietly(agentsLayout(dataHome).agentDir(id));
  return true;
}
