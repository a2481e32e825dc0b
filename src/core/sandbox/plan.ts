/**
 * A policy resolved against the disk, ready to wrap launches with (sync, pure): the tool, the real paths that
 * exist. Resolving creates the agent's state folders first (a folder that does not exist cannot be bound
 * writable, and the agent would create it at its first start), then takes each path's real path, so a workspace
 * symlink that points outside makes its target writable only when the target is itself a root: a symlink
 * *inside* a root is never followed here, the agent's writes through it land on the read-only rest.
 */
import { mkdir, realpath, stat } from "node:fs/promises";
import { AcpThreadsError } from "../errors";
import type { Launch } from "../platform/shell";
import { isStateFile } from "./agent-state";
import { bwrapArgs } from "./bwrap";
import type { SandboxMounts, SandboxPolicy } from "./policy";
import { seatbeltProfile } from "./seatbelt";
import { requireSandboxTool, type ProbeOptions, type SandboxTool } from "./tool";

export interface SandboxPlan extends SandboxMounts {
  tool: SandboxTool;
  policy: SandboxPolicy;
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
  if (policy.network === "allow-list") {
    // Limiting egress needs a filtering proxy the agent's every client honours; not built yet (docs/stop-32).
    throw new AcpThreadsError(
      "usage",
      `sandbox allowed hosts (${policy.allowedHosts.join(", ")}) are not supported yet: the sandbox keeps the network open; drop the host list to run sandboxed`,
    );
  }
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
  return {
    tool,
    policy,
    writable: [...writable],
    denyRead: [...denyRead].map(([path, dir]) => ({ path, dir })),
  };
}

/** `launch` run inside the sandbox `plan` describes, from `cwd`. */
export function sandboxedLaunch(plan: SandboxPlan, launch: Launch, cwd: string): Launch {
  if (plan.tool.kind === "seatbelt") {
    return { file: plan.tool.path, args: ["-p", seatbeltProfile(plan), launch.file, ...launch.args] };
  }
  return { file: plan.tool.path, args: [...bwrapArgs(plan, cwd), "--", launch.file, ...launch.args] };
}
