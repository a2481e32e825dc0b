/** Whether an installed agent has an update: its registry entry carries a newer version (a pure helper). */
import { compareSemver } from "./semver";
import type { InstalledAgent, RegistryAgent, RegistryIndex } from "./types";

export function updateFor(installed: InstalledAgent, index: RegistryIndex): RegistryAgent | null {
  const entry = index.agents.find((a) => a.id === installed.id);
  return entry && compareSemver(entry.version, installed.version) > 0 ? entry : null;
}
