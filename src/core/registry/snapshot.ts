/** The registry as shipped with this build (regenerate: `node scripts/registry-snapshot.mjs registry.json`). */
import snapshot from "./snapshot.json";

export function bundledSnapshot(): unknown {
  return snapshot;
}
