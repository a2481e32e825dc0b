/**
 * Which OS sandbox this machine has, probed once per process: bubblewrap on Linux (a tiny probe run, because
 * an installed `bwrap` still fails where unprivileged user namespaces are off, as on Ubuntu 24.04 without an
 * AppArmor profile), `sandbox-exec` (Seatbelt) on macOS, nothing elsewhere. A missing or failing tool is an
 * error that says what to install or change: a sandboxed run never silently runs unsandboxed.
 */
import { execFile } from "node:child_process";
import { AcpThreadsError } from "../errors";
import { findExecutable, findExecutableAsync } from "../platform/executables";
import { HOST_PLATFORM, type Platform } from "../platform/host";
import type { SandboxReport, SandboxTool } from "../model/sandbox";
import { describeSandbox } from "./labels";
import { describeSeccomp } from "./seccomp";

export type { SandboxTool };

export type SandboxAvailability = { available: true; tool: SandboxTool } | { available: false; problem: string };

export interface ProbeOptions {
  platform?: Platform;
  /** PATH and friends to find the tool with (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The tool's path (a setting), instead of looking on PATH. */
  toolPath?: string;
}

const PROBE_TIMEOUT_MS = 5_000;
const SEATBELT = "/usr/bin/sandbox-exec";
export const INSTALL_BWRAP =
  "install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`, `pacman -S bubblewrap`)";

const cache = new Map<string, Promise<SandboxAvailability>>();

function run(file: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS }, (err, stdout, stderr) =>
      resolve({ ok: !err, output: `${stderr}${stdout}`.trim() || (err?.message ?? "") }),
    );
  });
}

async function probe(opts: ProbeOptions): Promise<SandboxAvailability> {
  const p = opts.platform ?? HOST_PLATFORM;
  if (p.os === "darwin") {
    const path = opts.toolPath ?? SEATBELT;
    const r = await run(path, ["-p", "(version 1)(allow default)", "/usr/bin/true"]);
    if (r.ok) return { available: true, tool: { kind: "seatbelt", path } };
    return { available: false, problem: `sandbox-exec (Seatbelt) does not run here: ${r.output}` };
  }
  if (p.os !== "linux") {
    return {
      available: false,
      problem: `no OS sandbox on ${p.os}: an unprivileged process has no way to contain an agent here (use a worktree, or WSL)`,
    };
  }
  const path = opts.toolPath ?? findExecutable("bwrap", { cwd: "/", env: opts.env ?? p.env });
  if (!path) return { available: false, problem: `bubblewrap (bwrap) is not installed: ${INSTALL_BWRAP}` };
  const r = await run(path, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"]);
  if (r.ok) return { available: true, tool: { kind: "bwrap", path } };
  return {
    available: false,
    problem:
      `${path} cannot create a sandbox here (${r.output}). bubblewrap needs unprivileged user namespaces: ` +
      "Ubuntu 24.04 restricts them through AppArmor (give bwrap an AppArmor profile, or set " +
      "kernel.apparmor_restrict_unprivileged_userns=0); elsewhere check kernel.unprivileged_userns_clone=1 and " +
      "user.max_user_namespaces",
  };
}

/** Whether and how this machine sandboxes (cached per process and tool). */
export function sandboxAvailability(opts: ProbeOptions = {}): Promise<SandboxAvailability> {
  const p = opts.platform ?? HOST_PLATFORM;
  const key = `${p.os}\0${opts.toolPath ?? ""}\0${(opts.env ?? p.env).PATH ?? ""}`;
  let found = cache.get(key);
  if (!found) {
    found = probe(opts);
    cache.set(key, found);
  }
  return found;
}

const statusCache = new Map<string, Promise<boolean>>();

/**
 * Whether the bwrap at `path` reports on `--json-status-fd` that it executed the program (`"exit-code"` after
 * it: bubblewrap 0.3.2 and later), the signal that a failed start never ran it (setup-retry.ts). Probed once per
 * path; an older bwrap refuses the option, and its launches are not retried.
 */
export function bwrapReportsSetup(path: string): Promise<boolean> {
  let found = statusCache.get(path);
  if (!found) {
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--json-status-fd", "1", "true"];
    found = run(path, args).then((r) => r.ok && /"exit-code": 0/.test(r.output));
    statusCache.set(path, found);
  }
  return found;
}

let setprivFound: Promise<string | undefined> | undefined;

/**
 * `setpriv` (util-linux) where it sets a parent-death signal (`--pdeathsig`, 2.33 and later), probed once per
 * process: the retry loop's shell then dies with us, as bwrap does with `--die-with-parent` (setup-retry.ts).
 */
export function setprivWithPdeathsig(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  setprivFound ??= (async () => {
    const path = await findExecutableAsync("setpriv", { cwd: "/", env });
    return path && (await run(path, ["--pdeathsig", "KILL", "true"])).ok ? path : undefined;
  })();
  return setprivFound;
}

/** The tool, or the error that says why there is none (nothing may run then). */
export async function requireSandboxTool(opts: ProbeOptions = {}): Promise<SandboxTool> {
  const found = await sandboxAvailability(opts);
  if (found.available) return found.tool;
  throw new AcpThreadsError("sandbox_unavailable", `cannot sandbox the agent: ${found.problem}`);
}

/** What the engine reports of `found` (`sandbox.availability`): with bubblewrap, what seccomp blocks on `nodeArch`. */
export function sandboxReport(found: SandboxAvailability, nodeArch: string = process.arch): SandboxReport {
  if (!found.available || found.tool.kind !== "bwrap") return found;
  return { ...found, seccomp: describeSeccomp(nodeArch) };
}

/**
 * One line for doctor: how the sandbox works here (its network, given the allowed hosts; on Linux, what the
 * seccomp filter blocks or why there is none), or why it does not (labels.ts's `describeSandbox` of the report).
 */
export function describeAvailability(
  found: SandboxAvailability,
  allowedHosts: readonly string[] = [],
  nodeArch: string = process.arch,
): string {
  return describeSandbox(sandboxReport(found, nodeArch), allowedHosts);
}
