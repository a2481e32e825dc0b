/** This machine's name in the registry's `binary` table (`linux-x86_64`, `darwin-aarch64`, …). */
import type { RegistryPlatform } from "./types";

const OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" };
const CPU: Record<string, string> = { x64: "x86_64", arm64: "aarch64" };

export function registryPlatformOf(platform: string, arch: string): RegistryPlatform | undefined {
  const os = OS[platform];
  const cpu = CPU[arch];
  return os && cpu ? (`${os}-${cpu}` as RegistryPlatform) : undefined;
}

export function hostRegistryPlatform(): RegistryPlatform | undefined {
  return registryPlatformOf(process.platform, process.arch);
}
