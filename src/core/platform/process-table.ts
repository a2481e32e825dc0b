/**
 * Reading the process table: who is in a run's group or session, and a start time that tells a live run from
 * a recycled pid. Linux reads `/proc/<pid>/stat`; macOS and the BSDs ask `ps` (no session ids there, so a run
 * is its group plus the descendants of its members); Windows has neither (`undefined`: callers fall back to
 * pid liveness, and `taskkill /T` walks the tree itself).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { HOST_PLATFORM, type Platform } from "./host";

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id (Linux only). */
  sid?: number;
  zombie: boolean;
}

export interface ProcessTable {
  readonly kind: "proc" | "ps" | "none";
  /** Every process, or undefined when the table cannot be read. */
  list(): ProcInfo[] | undefined;
  /** A number that changes when `pid` is reused (start time), or undefined when unknown. */
  startId(pid: number): number | undefined;
}

/** Linux: `/proc/<pid>/stat` (the command name may hold spaces and parentheses: split after the last ')'). */
export function procTable(root = "/proc"): ProcessTable {
  const stat = (pid: number) => {
    let raw: string;
    try {
      raw = readFileSync(`${root}/${pid}/stat`, "utf8");
    } catch {
      return undefined;
    }
    const f = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
    const info: ProcInfo = { pid, ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]), zombie: f[0] === "Z" };
    return { info, start: Number(f[19]) };
  };
  return {
    kind: "proc",
    list() {
      let names: string[];
      try {
        names = readdirSync(root);
      } catch {
        return undefined;
      }
      const out: ProcInfo[] = [];
      for (const n of names) {
        const s = /^\d+$/.test(n) ? stat(Number(n)) : undefined;
        if (s) out.push(s.info);
      }
      return out;
    },
    startId: (pid) => stat(pid)?.start,
  };
}

export type PsRunner = (args: string[]) => string;
const runPs: PsRunner = (args) =>
  execFileSync("ps", args, { encoding: "utf8", env: { ...process.env, LC_ALL: "C" }, timeout: 5_000 });

/** macOS / BSD: `ps -A -o pid=,ppid=,pgid=,stat=` and `ps -o lstart= -p PID` (start time, 1 s resolution). */
export function psTable(run: PsRunner = runPs): ProcessTable {
  return {
    kind: "ps",
    list() {
      let out: string;
      try {
        out = run(["-A", "-o", "pid=,ppid=,pgid=,stat="]);
      } catch {
        return undefined;
      }
      const rows: ProcInfo[] = [];
      for (const line of out.split("\n")) {
        const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
        if (!pid || !/^\d+$/.test(pid)) continue;
        rows.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: (stat ?? "").startsWith("Z") });
      }
      return rows;
    },
    startId(pid) {
      try {
        const t = Date.parse(run(["-o", "lstart=", "-p", String(pid)]).trim());
        return Number.isNaN(t) ? undefined : t / 1000;
      } catch {
        return undefined; // gone
      }
    },
  };
}

const NO_TABLE: ProcessTable = { kind: "none", list: () => undefined, startId: () => undefined };

export function processTable(p: Platform = HOST_PLATFORM): ProcessTable {
  if (p.os === "linux" || p.os === "android") return procTable();
  if (p.os === "win32") return NO_TABLE;
  return psTable();
}

/**
 * The live members of the run led by `pgid`: its group and (where sessions are known) its session, so the jobs
 * an interactive shell put in groups of their own count too; without session ids, the descendants of the
 * group's members.
 */
export function runMembers(table: ProcessTable, pgid: number): ProcInfo[] | undefined {
  const all = table.list();
  if (!all) return undefined;
  const live = all.filter((i) => !i.zombie);
  if (live.some((i) => i.sid !== undefined)) return live.filter((i) => i.sid === pgid || i.pgid === pgid);
  const members = new Set(live.filter((i) => i.pgid === pgid).map((i) => i.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const i of live) {
      if (!members.has(i.pid) && members.has(i.ppid)) {
        members.add(i.pid);
        grew = true;
      }
    }
  }
  return live.filter((i) => members.has(i.pid));
}
