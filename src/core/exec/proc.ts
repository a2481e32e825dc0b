/**
 * Process helpers: liveness, identity (start time, so a recycled pid is not mistaken for a run) and killing a
 * run's whole process group. Every run starts in its own session (setsid via `detached` or the PTY), so its
 * pid is also its process group and session id. An interactive shell on a PTY puts each job in a group of its own,
 * so on Linux we also signal every group still in the run's session; grandchildren that did not leave it die too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_KILL_GRACE_MS } from "./types";

const POLL_MS = 25;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface ProcStat {
  pgid: number;
  sid: number;
  startTicks: number;
  zombie: boolean;
}

/** Fields of /proc/<pid>/stat (Linux only; `undefined` elsewhere or when the process is gone). */
function procStat(pid: number): ProcStat | undefined {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may contain spaces: split after the last ')'.
  const rest = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
  return { zombie: rest[0] === "Z", pgid: Number(rest[2]), sid: Number(rest[3]), startTicks: Number(rest[19]) };
}

export function processStartTicks(pid: number): number | undefined {
  return procStat(pid)?.startTicks;
}

function listPids(): number[] | undefined {
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return undefined;
  }
}

/** Live (non-zombie) processes of the run: in its group or its session. Linux only. */
function runMembers(pgid: number): ProcStat[] | undefined {
  const pids = listPids();
  if (!pids) return undefined;
  const out: ProcStat[] = [];
  for (const pid of pids) {
    const stat = procStat(pid);
    if (stat && !stat.zombie && (stat.sid === pgid || stat.pgid === pgid)) out.push(stat);
  }
  return out;
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any live process is left in the run's group or session (signal 0 alone also counts zombies). */
export function groupAlive(pgid: number): boolean {
  const members = runMembers(pgid);
  return members ? members.length > 0 : signalGroup(pgid, 0);
}

/** Sends `signal` to the run's group and every group in its session. */
export function signalRun(pgid: number, signal: NodeJS.Signals): void {
  const groups = new Set<number>([pgid]);
  for (const member of runMembers(pgid) ?? []) groups.add(member.pgid);
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
