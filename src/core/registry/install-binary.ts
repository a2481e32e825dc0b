/**
 * `binary` distributions: this platform's archive, downloaded (https, redirects checked, capped: http.ts), its
 * sha256 checked when the registry gives one, extracted, and its `cmd` made executable. The `cmd` must stay inside
 * the install folder.
 */
import { chmodSync, existsSync, realpathSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { AcpThreadsError } from "../errors";
import { archiveKind, extractArchive } from "./extract";
import { downloadTo } from "./http";
import type { BinaryTarget, InstallProgress, RegistryAgent, RegistryPlatform } from "./types";

/** This platform's target, or a clear error listing the platforms the agent offers. */
export function binaryTargetFor(agent: RegistryAgent, platform: RegistryPlatform | undefined): BinaryTarget {
  const table = agent.distribution.binary ?? {};
  const target = platform ? table[platform] : undefined;
  if (target) return target;
  const offered = Object.keys(table).join(", ") || "none";
  throw new AcpThreadsError(
    "not_found",
    `${agent.name} ${agent.version} has no build for ${platform ?? `${process.platform}-${process.arch}`} (offered: ${offered})`,
  );
}

/** `cmd` as a path inside `dir`, or throws: `../x`, `/abs` and symlinks leading out are refused. */
export function commandInside(dir: string, cmd: string): string {
  const root = resolve(dir);
  const target = resolve(root, cmd);
  const inside = (p: string, r: string) => p === r || p.startsWith(r + sep);
  if (!inside(target, root))
    throw new AcpThreadsError("usage", `the agent's cmd '${cmd}' points outside its install folder`);
  if (existsSync(target) && !inside(realpathSync(target), realpathSync(root)))
    throw new AcpThreadsError("usage", `the agent's cmd '${cmd}' links outside its install folder`);
  return target;
}

export async function binaryInstall(
  agent: RegistryAgent,
  target: BinaryTarget,
  dir: string,
  opts: { signal?: AbortSignal; onProgress?: (p: InstallProgress) => void; timeoutMs?: number },
): Promise<string> {
  const kind = archiveKind(target.archive);
  const cmdPath = commandInside(dir, target.cmd); // refused before anything is downloaded
  const file = join(dir, `.download-${kind === "raw" ? "bin" : kind}`);
  opts.onProgress?.({ phase: "download", message: `downloading ${target.archive}`, fraction: 0 });
  const sha = await downloadTo(target.archive, file, {
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    onBytes: (got, total) =>
      opts.onProgress?.({
        phase: "download",
        message: `downloading ${agent.name}: ${(got / 1e6).toFixed(1)} MB`,
        fraction: total ? got / total : undefined,
      }),
  });
  if (target.sha256) {
    opts.onProgress?.({ phase: "verify", message: "checking sha256" });
    if (sha !== target.sha256.toLowerCase())
      throw new AcpThreadsError(
        "corrupt",
        `${target.archive}: sha256 is ${sha}, the registry says ${target.sha256}; the download was discarded`,
      );
  }
  opts.onProgress?.({ phase: "extract", message: `extracting ${kind === "raw" ? "binary" : kind}` });
  try {
    extractArchive(file, kind, dir, target.cmd);
  } finally {
    rmSync(file, { force: true });
  }
  const cmd = commandInside(dir, target.cmd); // again now that it exists (a symlink may lead out)
  if (!existsSync(cmd) || !statSync(cmd).isFile())
    throw new AcpThreadsError("not_found", `${target.archive} holds no file '${target.cmd}'`);
  if (process.platform !== "win32") chmodSync(cmd, (statSync(cmd).mode & 0o7777) | 0o755);
  return relative(dir, cmdPath);
}
