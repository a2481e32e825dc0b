/**
 * The floor of a stat walk of the ledger bench's 10k files (#36 item 6), measured in the same run as the walk:
 * - GNU find listing the same folders and printing each file's size, mtime and inode (`-printf`: readdir, then
 *   one fstatat per file, from C), and listing them without a stat (`-printf %p`: readdir alone), its CPU read
 *   from the kernel's count of the waited-for children (Linux: /proc/self/stat), over `FIND_RUNS` runs.
 * Used by ledger.main.ts; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const FIND_RUNS = 10;

export const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface Floor {
  ms: number;
  cpuMs: number;
}

/** The CPU time of this process's waited-for children, in ms (Linux; undefined elsewhere). */
function childrenCpuMs(): number | undefined {
  try {
    // the fields after the command's ")": state is field 3, cutime and cstime are fields 16 and 17
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * GNU find over `dirs` (absolute folders, their files only: `-maxdepth 1`), with a stat per file (`stat`: size,
 * mtime, inode printed) or without: median wall of `FIND_RUNS`, mean CPU (find's own). Undefined without find.
 */
export function findAllMs(dirs: readonly string[], stat: boolean): (Floor & { files: number }) | undefined {
  const format = stat ? "%p\\0%s\\0%T@\\0%i\\0" : "%p\\0";
  const args = [...dirs, "-maxdepth", "1", "-type", "f", "-printf", format];
  const walls: number[] = [];
  let files = 0;
  const c0 = childrenCpuMs();
  for (let i = 0; i < FIND_RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync("find", args, { maxBuffer: 1 << 28 });
    walls.push(ms(t0));
    if (r.status !== 0) return undefined;
    files = r.stdout.toString().split("\0").filter(Boolean).length / (stat ? 4 : 1);
  }
  const c1 = childrenCpuMs();
  const cpuMs = c0 !== undefined && c1 !== undefined ? (c1 - c0) / FIND_RUNS : NaN;
  return { ms: median(walls), cpuMs, files };
}

/** The bench workspace's file folders, absolute. */
export const benchDirs = (ws: string, dirs: number): string[] =>
  Array.from({ length: dirs }, (_, d) => join(ws, `src/m${d % 25}/d${d}`));
