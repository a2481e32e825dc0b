/**
 * Process helpers: liveness, identity (start time, so a recycled pid is not mistaken for a run) and killing a
 * run's whole process group. Every run starts in its own session (setsid via `detached` or the PTY), so its
 * pid is also its process group and session id. An interactive shell on a PTY puts each job in a group of its own,
 * so we also signal every group still in the run's session (Linux, from /proc) or, where sessions are not known
 * (macOS, from `ps`), every group of the run's descendants. Windows has neither groups nor signals: the run's
 * tree is ended with `taskkill /T /F` (platform/process-tree.ts) and liveness is the leader's.
 */
import { constants } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { HOST_PLATFORM, isWindows } from "../platform/host";
import { processTable, runMembers, type ProcessTable } from "../platform/process-table";
import { signalTree } from "../platform/process-tree";
import { DEFAULT_KILL_GRACE_MS } from "./types";

const POLL_MS = 25;
let table: ProcessTable | undefined;
const procs = () => (table ??= processTable(HOST_PLATFORM));

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** An identity of the live process `pid` (its start time), or undefined when unknown or gone. */
export function processStartTicks(pid: number): number | undefined {
  return procs().startId(pid);
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (isWindows()) return signal === 0 ? isAlive(pgid) : signalTree(pgid, signal);
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any live process is left in the run's group or session (signal 0 alone also counts zombies). */
export function groupAlive(pgid: number): boolean {
  const members = runMembers(procs(), pgid);
  return members ? members.length > 0 : signalGroup(pgid, 0);
}

/** Sends `signal` to the run's group and every group in its session (Windows: its process tree). */
export function signalRun(pgid: number, signal: NodeJS.Signals): void {
  const groups = new Set<number>([pgid]);
  if (!isWindows()) for (const member of runMembers(procs(), pgid) ?? []) groups.add(member.pgid);
  for (const group of groups) signalGroup(group, signal);
}

/**
 * SIGTERM to the run's groups, then SIGKILL to whatever is left after `graceMs`. Resolves when nothing is left
 * (or after the SIGKILL round when the kernel is slow to reap).
 */
export async function killRunGroup(pgid: number, graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  signalRun(pgid, "SIGTERM");
  // Stopped jobs ignore SIGTERM until continued.
  signalRun(pgid, "SIGCONT");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await sleep(POLL_MS);
  }
  signalRun(pgid, "SIGKILL");
  for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(POLL_MS);
}

/** `SIGTERM` for 15 and so on; `null` for 0 / unknown. */
export function signalName(signal: number | null | undefined): string | null {
  if (!signal) return null;
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry ? entry[0] : `SIG${signal}`;
}

/** Shell convention for a process killed by a signal: 128 + its number. */
export function signalExitCode(signal: string | null): number {
  const n = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
  return 128 + (n ?? 1);
}
