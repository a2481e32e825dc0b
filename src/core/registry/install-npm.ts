/**
 * `npx` distributions: `npm install --prefix <dir> <package>` once (the package's own pinned version), then the
 * agent starts from the ABSOLUTE path of its bin script, fast and offline, run by a Node the engine picks.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { AcpThreadsError } from "../errors";
import { npmSpecProblem } from "./package-spec";
import { findTool, runTool } from "./run-tool";
import type { InstallProgress, PackageDistribution } from "./types";

/** `@scope/name@1.2.3` → `@scope/name`. */
export function packageName(spec: string): string {
  const at = spec.indexOf("@", 1);
  return at > 0 ? spec.slice(0, at) : spec;
}

export interface NpmBin {
  /** The bin script, relative to the install folder. */
  script: string;
  /** The package's `engines.node`, when it states one. */
  nodeEngine?: string;
}

/** The bin script (relative to `dir`) that `npx [--package P] [cmd]` would run. */
export function npmBinOf(dir: string, dist: PackageDistribution): NpmBin {
  const name = packageName(dist.package);
  const pkgDir = join(dir, "node_modules", name);
  let manifest: { bin?: string | Record<string, string>; engines?: { node?: unknown } };
  try {
    manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  } catch {
    throw new AcpThreadsError("not_found", `npm did not install ${name} (no ${pkgDir}/package.json)`);
  }
  const bins: Record<string, string> =
    typeof manifest.bin === "string" ? { [name.split("/").pop()!]: manifest.bin } : (manifest.bin ?? {});
  const wanted = dist.cmd ?? (Object.keys(bins).length === 1 ? Object.keys(bins)[0]! : name.split("/").pop()!);
  const nodeEngine = typeof manifest.engines?.node === "string" ? manifest.engines.node : undefined;
  const found = (script: string): NpmBin => ({ script: relative(dir, script), ...(nodeEngine ? { nodeEngine } : {}) });
  if (bins[wanted]) return found(join(pkgDir, bins[wanted]));
  const link = join(dir, "node_modules", ".bin", wanted); // a bin of one of its dependencies (`npx --package P cmd`)
  if (existsSync(link)) return found(realpathSync(link));
  const offered = Object.keys(bins).join(", ") || "none";
  throw new AcpThreadsError("not_found", `${dist.package} has no command '${wanted}' (its commands: ${offered})`);
}

/** npm's arguments that install `spec` (checked: npmSpecProblem) into `dir`. */
export function npmInstallArgs(spec: string, dir: string): string[] {
  const refused = npmSpecProblem(spec);
  if (refused) throw new AcpThreadsError("usage", `not installed: ${refused}`);
  return ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", spec];
}

export async function npmInstall(
  dist: PackageDistribution,
  dir: string,
  opts: { signal?: AbortSignal; onProgress?: (p: InstallProgress) => void; env?: NodeJS.ProcessEnv },
): Promise<NpmBin> {
  const args = npmInstallArgs(dist.package, dir); // refused before npm is even looked for
  const npm = findTool("npm", opts.env);
  if (!npm)
    throw new AcpThreadsError("agent_not_found", `installing ${dist.package} needs npm on PATH: install Node.js first`);
  opts.onProgress?.({ phase: "npm", message: `npm install ${dist.package}` });
  await runTool(npm, args, {
    cwd: dir,
    env: opts.env,
    signal: opts.signal,
    onLine: (line) => opts.onProgress?.({ phase: "npm", message: line }),
  });
  return npmBinOf(dir, dist);
}
