/** Where installed agents live in the data home (a pure helper: path math). */
import { join } from "node:path";
import { homeLayout } from "../platform/data-home";

export function agentsLayout(dataHome: string) {
  const root = homeLayout(dataHome).agentsDir;
  return {
    root,
    /** The last registry index read from the network (what `fetchRegistry` falls back to). */
    cacheFile: join(root, "registry-cache.json"),
    /** The installed agents (see installed.ts); its lock serialises installs. */
    installedFile: join(root, "installed.json"),
    agentDir: (id: string) => join(root, id),
    versionDir: (id: string, version: string) => join(root, id, version),
  };
}
