/**
 * A platform's name in the registry's `binary` table (`linux-x86_64`, `darwin-aarch64`, …), and which distribution
 * an entry installs there (a pure helper: the caller names the platform).
 */
import type { InstallKind, RegistryAgent, RegistryPlatform } from "./types";

const OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" };
const CPU: Record<string, string> = { x64: "x86_64", arm64: "aarch64" };

export function registryPlatformOf(platform: string, arch: string): RegistryPlatform | undefined {
  const os = OS[platform];
  const cpu = CPU[arch];
  return os && cpu ? (`${os}-${cpu}` as RegistryPlatform) : undefined;
}

/** The distribution `platform` installs: its binary build, else npx, else uvx; none: nothing to install there. */
export function installKindOf(agent: RegistryAgent, platform: RegistryPlatform | undefined): InstallKind | undefined {
  const d = agent.distribution;
  if (d.binary && platform && d.binary[platform]) return "binary";
  if (d.npx) return "npx";
  if (d.uvx) return "uvx";
  return undefined;
}
