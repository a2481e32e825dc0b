/** Updates: an installed agent whose registry entry carries a newer version; updating = installing it (the install drops the old version). */
import { installAgent, type InstallOptions } from "./install";
import type { InstalledAgent, RegistryIndex } from "./types";
import { updateFor } from "./update-for";

export { updateFor };

/** Installs the newer version when there is one; resolves with the new record, or null when already current. */
export async function updateAgent(
  installed: InstalledAgent,
  index: RegistryIndex,
  opts: InstallOptions,
): Promise<InstalledAgent | null> {
  const next = updateFor(installed, index);
  return next ? installAgent(next, opts) : null;
}
