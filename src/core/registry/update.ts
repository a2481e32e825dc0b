/** Updates: an installed agent whose registry entry carries a newer version; updating = installing it (the install drops the old version). */
import { installAgent, type InstallOptions } from "./install";
import { compareSemver } from "./semver";
import type { InstalledAgent, RegistryAgent, RegistryIndex } from "./types";

export function updateFor(installed: InstalledAgent, index: RegistryIndex): RegistryAgent | null {
  const entry = index.agents.find((a) => a.id === installed.id);
  return entry && compareSemver(entry.version, installed.version) > 0 ? entry : null;
}

/** Installs the newer version when there is one; resolves with the new record, or null when already current. */
export async function updateAgent(
  installed: InstalledAgent,
  index: RegistryIndex,
  opts: InstallOptions,
): Promise<InstalledAgent | null> {
  const next = updateFor(installed, index);
  return next ? installAgent(next, opts) : null;
}
