/**
 * A policy resolved against the disk, ready to wrap launches with (sync, pure): the tool, the real paths that
 * exist. Resolving creates the agent's state folders first (a folder that does not exist cannot be bound
 * writable, and the agent would create it at its first start), then takes each path's real path, so a workspace
 * symlink that points outside makes its target writable only when the target is itself a root: a symlink
 * *inside* a root is never followed here, the agent's writes through it land on the read-only rest.
 */
import { mkdir, realpath, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { AcpThreadsError } from "../errors";
import type { Launch } from "../platform/shell";
import { isStateFile } from "./agent-state";
import { bwrapArgs } from "./bwrap";
import { bridgedLaunch, EGRESS_PORT, egressEnv } from "./egress-bridge";
import { startEgressProxy, type EgressProxy } from "./egress-proxy";
import { hiddenFolders } from "./hidden-folders";
import { parseAllowedHosts } from "./hosts";
import { guardMasks, type MaskGuard } from "./mask-guard";
import type { SandboxEgress, SandboxMounts, SandboxPolicy } from "./policy";
import { seatbeltProfile } from "./seatbelt";
import { filterOnlyArgs, seccompDir, seccompFilter, withFilterFd } from "./seccomp";
import { background } from "../util/unexpected";
import { retryingSetup } from "./setup-retry";
import {
  bwrapReportsSetup,
  requireSandboxTool,
  setprivWithPdeathsig,
  type ProbeOptions,
  type SandboxTool,
} from "./tool";

export interface SandboxPlan extends SandboxMounts {
  tool: SandboxTool;
  policy: SandboxPolicy;
  /** With allowed hosts: the running egress proxy (its refusals: `proxy.onBlocked`); see `closeSandbox`. */
  proxy?: EgressProxy;
  /** Linux on x86_64 / aarch64: the seccomp filter's file (seccomp.ts), loaded into every sandboxed launch. */
  seccomp?: string;
  /** Linux: watches the denied paths that keep a mount of their own; once one is replaced, the plan is lost. */
  guard?: MaskGuard;
  /**
   * Linux: bwrap reports whether it ran the program, so a launch whose set-up failed starts again (setup-retry.ts);
   * `setpriv` makes the retrying shell die with us.
   */
  retrySetup?: { setpriv?: string };
}

/** The folder every session's egress proxy folder goes in (one per user: hidden inside each sandbox). */
export function egressParent(tmpDir: string): string {
  return join(tmpDir, `acp-threads-egress-${process.getuid?.() ?? 0}`);
}

async function startEgress(
  policy: SandboxPolicy,
  tool: SandboxTool,
): Promise<{ proxy: EgressProxy; egress: SandboxEgress }> {
  const rules = parseAllowedHosts(policy.allowedHosts);
  if (tool.kind === "seatbelt") {
    const proxy = await startEgressProxy({ rules });
    return { proxy, egress: { kind: "port", port: "tcp" in proxy.listen ? proxy.listen.tcp : 0 } };
  }
  const hidden = egressParent(policy.tmpDir);
  const proxy = await startEgressProxy({ rules, parent: hidden });
  const socket = "unix" in proxy.listen ? proxy.listen.unix : "";
  return { proxy, egress: { kind: "socket", hidden, dir: proxy.dir!, socket } };
}

/** Ends what the plan runs for its session (the egress proxy, its socket and folder); the owner calls it once done. */
export async function closeSandbox(plan: SandboxPlan | undefined): Promise<void> {
  plan?.guard?.close();
  await plan?.proxy?.close();
}

/** Starts an exec run in `plan`'s sandbox; the plan's egress proxy closes when the run has exited (or failed to start). */
export async function startSandboxed<R extends { exited: Promise<unknown> }>(
  plan: SandboxPlan | undefined,
  start: () => Promise<R>,
): Promise<R> {
  let run: R;
  try {
    run = await start();
  } catch (err) {
    await closeSandbox(plan);
    throw err;
  }
  background(
    run.exited.then(() => closeSandbox(plan)),
    "closing the sandbox's egress proxy",
  );
  return run;
}

async function existing(path: string): Promise<{ real: string; dir: boolean } | undefined> {
  try {
    const real = await realpath(path);
    return { real, dir: (await stat(real)).isDirectory() };
  } catch {
    return undefined;
  }
}

/** Probes the tool (the clear error when there is none) and resolves `policy` on this machine. */
export async function prepareSandbox(policy: SandboxPolicy, opts: ProbeOptions = {}): Promise<SandboxPlan> {
  const tool = await requireSandboxTool(opts);
  const state = policy.writable.filter((w) => !isStateFile(w));
  await Promise.all(state.map((dir) => mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => undefined)));
  const writable = new Set<string>();
  for (const path of [...policy.roots, ...policy.writable]) {
    const found = await existing(path);
    if (found) writable.add(found.real);
  }
  const denyRead = new Map<string, boolean>();
  for (const path of policy.denyRead) {
    const found = await existing(path);
    if (!found) continue;
    denyRead.set(path, found.dir);
    denyRead.set(found.real, found.dir);
  }
  const readOnly = new Set<string>();
  for (const path of policy.readOnly) {
    const found = await existing(path);
    if (found?.dir) readOnly.add(found.real);
  }
  const denied = [...denyRead].map(([path, dir]) => ({ path, dir }));
  const hidden =
    tool.kind === "bwrap"
      ? await hiddenFolders({ writable: [...writable], denyRead: denied, readOnly: [...readOnly] })
      : undefined;
  const hiddenParents = new Set(hidden?.folders.map((f) => f.path));
  const guard =
    tool.kind === "bwrap"
      ? await guardMasks(
          denied.filter((d) => !hidden?.covered.has(d.path) && !hiddenParents.has(dirname(d.path))).map((d) => d.path),
        )
      : undefined;
  const filter = tool.kind === "bwrap" ? await seccompFilter(seccompDir(policy.tmpDir)) : undefined;
  const retrySetup =
    tool.kind === "bwrap" && (await bwrapReportsSetup(tool.path))
      ? { setpriv: await setprivWithPdeathsig(opts.env ?? process.env) }
      : undefined;
  const network = policy.network === "allow-list" ? await startEgress(policy, tool) : undefined;
  return {
    tool,
    ...(retrySetup ? { retrySetup } : {}),
    ...(filter?.path ? { seccomp: filter.path } : {}),
    ...(guard ? { guard } : {}),
    policy,
    writable: [...writable],
    denyRead: denied.map((d) => (hidden?.covered.has(d.path) ? { ...d, hidden: true } : d)),
    ...(hidden?.folders.length ? { hiddenFolders: hidden.folders } : {}),
    readOnly: [...readOnly],
    ...network,
  };
}

/** `launch` run inside the sandbox `plan` describes, from `cwd`. */
export function sandboxedLaunch(plan: SandboxPlan, launch: Launch, cwd: string): Launch {
  const lost = plan.guard?.lost();
  if (lost) throw new AcpThreadsError("sandbox_unavailable", `cannot start in the sandbox: ${lost}`);
  const egress = plan.egress;
  if (plan.tool.kind === "seatbelt") {
    const env = egress?.kind === "port" ? egressEnv(egress.port) : undefined;
    // `env` sets the proxy variables for the agent (Seatbelt has no environment option)
    const inner = env
      ? [
          "/usr/bin/env",
          ...env.unset.flatMap((n) => ["-u", n]),
          ...Object.entries(env.set).map(([k, v]) => `${k}=${v}`),
        ]
      : [];
    return { file: plan.tool.path, args: ["-p", seatbeltProfile(plan), ...inner, launch.file, ...launch.args] };
  }
  const seccomp = plan.seccomp;
  const wrap = (argv: string[]): Launch =>
    plan.retrySetup
      ? retryingSetup(argv, seccomp, plan.retrySetup.setpriv)
      : seccomp
        ? withFilterFd(seccomp, argv)
        : { file: argv[0]!, args: argv.slice(1) };
  if (egress?.kind !== "socket") {
    const filter = seccomp ? ["--seccomp", "3"] : [];
    return wrap([plan.tool.path, ...bwrapArgs(plan, cwd), ...filter, "--", launch.file, ...launch.args]);
  }
  // The bridge connects to the proxy's unix socket, so the filter cannot be bwrap's: the agent the bridge starts
  // goes through a nested bwrap that only loads it (fd 3, handed on by the bridge).
  const agent = seccomp
    ? { file: plan.tool.path, args: [...filterOnlyArgs(), "--", launch.file, ...launch.args] }
    : launch;
  const bridged = bridgedLaunch(agent, egress.socket, seccomp !== undefined);
  const env = egressEnv(EGRESS_PORT);
  const vars = [
    ...env.unset.flatMap((n) => ["--unsetenv", n]),
    ...Object.entries({ ...env.set, ...bridged.env }).flatMap(([k, v]) => ["--setenv", k, v]),
  ];
  return wrap([plan.tool.path, ...bwrapArgs(plan, cwd), ...vars, "--", bridged.launch.file, ...bridged.launch.args]);
}
