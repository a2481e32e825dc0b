/**
 * Environment blocks for child processes. Windows names are case-insensitive (`Path` and `PATH` are one
 * variable; a block holding both hands the child an arbitrary one), so layers merge by name ignoring case
 * there. `PWD` is a POSIX shell convention: set to the child's cwd on POSIX only.
 */
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

/** `env[name]`, ignoring case on Windows. */
export function envGet(env: NodeJS.ProcessEnv, name: string, p: Platform = HOST_PLATFORM): string | undefined {
  if (!isWindows(p)) return env[name];
  if (env[name] !== undefined) return env[name];
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) if (key.toUpperCase() === upper) return value;
  return undefined;
}

/** Later layers win; on Windows a later `PATH` replaces an earlier `Path` instead of sitting next to it. */
export function mergeEnv(p: Platform, ...layers: (NodeJS.ProcessEnv | undefined)[]): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const keyOf = new Map<string, string>();
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (isWindows(p)) {
        const existing = keyOf.get(key.toUpperCase());
        if (existing !== undefined && existing !== key) delete out[existing];
        keyOf.set(key.toUpperCase(), key);
      }
      out[key] = value;
    }
  }
  return out;
}

/** The environment for a child started in `cwd`: the layers merged, plus `PWD` on POSIX. */
export function childEnv(p: Platform, cwd: string, ...layers: (NodeJS.ProcessEnv | undefined)[]): NodeJS.ProcessEnv {
  const env = mergeEnv(p, ...layers);
  if (!isWindows(p)) env.PWD = cwd;
  return env;
}
