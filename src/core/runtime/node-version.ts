/**
 * `node --version` of a binary, asked once per binary (and again when the file changes), off the caller's thread:
 * the stat on libuv's thread pool, the binary run as a child process (a session's start on the extension host).
 */
import { execFile } from "node:child_process";
import { stat as statAsync } from "node:fs/promises";
import { promisify } from "node:util";
import { parseVersion } from "./semver";

export const NODE_VERSION_TIMEOUT_MS = 10_000;

const execFileAsync = promisify(execFile);
const cache = new Map<string, { mtimeMs: number; size: number; version: string | null }>();

/**
 * The version (`20.20.2`, no `v`) the binary reports, or null when it does not run or prints no version.
 * `ELECTRON_RUN_AS_NODE=1` makes an Electron binary answer as the Node it embeds (a real node ignores it).
 */
export async function nodeVersionOf(path: string): Promise<string | null> {
  let stat;
  try {
    stat = await statAsync(path);
  } catch {
    return null;
  }
  const hit = cache.get(path);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.version;
  let version: string | null;
  try {
    const { stdout } = await execFileAsync(path, ["--version"], {
      encoding: "utf8",
      timeout: NODE_VERSION_TIMEOUT_MS,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      windowsHide: true,
    });
    const out = stdout.trim();
    version = parseVersion(out) ? out.replace(/^v/, "") : null;
  } catch {
    version = null;
  }
  cache.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, version });
  return version;
}
