/** `node --version` of a binary, asked once per binary (and again when the file changes). */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { parseVersion } from "./semver";

export const NODE_VERSION_TIMEOUT_MS = 10_000;

const cache = new Map<string, { mtimeMs: number; size: number; version: string | null }>();

/**
 * The version (`20.20.2`, no `v`) the binary reports, or null when it does not run or prints no version.
 * `ELECTRON_RUN_AS_NODE=1` makes an Electron binary answer as the Node it embeds (a real node ignores it).
 */
export function nodeVersionOf(path: string): string | null {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return null;
  }
  const hit = cache.get(path);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.version;
  let version: string | null;
  try {
    const out = execFileSync(path, ["--version"], {
      encoding: "utf8",
      timeout: NODE_VERSION_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      windowsHide: true,
    });
    const parsed = parseVersion(out.trim());
    version = parsed ? out.trim().replace(/^v/, "") : null;
  } catch {
    version = null;
  }
  cache.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, version });
  return version;
}
