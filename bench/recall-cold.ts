/**
 * Cold CLI figures for the recall bench: every command runs in a new process, interleaved round-robin with a bare
 * `node -e 0` and `rg -l` over the same corpus, so machine load hits all of them alike. Medians of `runs` rounds.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ColdCase {
  name: string;
  /** Arguments after `node`, or a full command line when `cmd` is given. */
  args: string[];
  cmd?: string;
  env?: NodeJS.ProcessEnv;
  /** Untimed, around each run (the first-call rows stop the warm process before and wait for the new one after). */
  before?: () => void;
  after?: () => void;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeOnce(c: ColdCase): number {
  c.before?.();
  const t0 = performance.now();
  const r = spawnSync(c.cmd ?? process.execPath, c.args, {
    env: c.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const elapsed = performance.now() - t0;
  if (r.status !== 0 && c.cmd === undefined)
    throw new Error(`${c.name}: exit ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  c.after?.();
  return elapsed;
}

/** Median wall time per case; every round runs each case once, in order. */
export function measureCold(cases: ColdCase[], runs: number): Map<string, number> {
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) timeOnce(c); // warm the OS file cache for every binary and file involved
  for (let i = 0; i < runs; i++) for (const c of cases) times.get(c.name)!.push(timeOnce(c));
  return new Map([...times].map(([k, xs]) => [k, median(xs)]));
}

export interface ColdNeedles {
  selective: string;
  common: string;
  cjk2: string;
}

/**
 * The cold start figures: bare node, `--version`, `status` on an empty store, and a query per needle class,
 * each as a new `acp-threads` process, plus each query as the first call (no warm process: #36 item 5); `rg -l`
 * over the same JSONL as the outside anchor. `extraEnv` selects a
 * variant (for example the warm recall process on or off).
 */
export function coldCases(
  cli: string,
  home: string,
  corpusRoot: string,
  q: ColdNeedles,
  variants: { label: string; env: NodeJS.ProcessEnv }[],
  otherNode?: string,
): { cases: ColdCase[]; cleanup: () => void } {
  const emptyHome = mkdtempSync(join(tmpdir(), "recall-empty-"));
  const cases: ColdCase[] = [{ name: "bare node -e 0", args: ["-e", "0"] }];
  const base = { ...process.env, ACP_THREADS_HOME: home };
  for (const v of variants) {
    const env = { ...base, ...v.env };
    const emptyEnv = { ...env, ACP_THREADS_HOME: emptyHome };
    cases.push({ name: `${v.label}--version`, args: [cli, "--version"], env });
    cases.push({ name: `${v.label}status, empty store`, args: [cli, "status"], env: emptyEnv });
    for (const [cls, needle] of Object.entries(q))
      cases.push({
        name: `${v.label}query ${cls}`,
        args: [cli, "recall", "--global", "--format", "json", needle],
        env,
      });
  }
  // the first call after a login, an upgrade or an idle exit: no warm process yet (stopped before each run, and
  // the one this call leaves behind waited for, so the other rows keep theirs)
  const warmEnv = { ...base, ACP_THREADS_RECALL_DAEMON: "" };
  const serve = (arg: string) =>
    spawnSync(process.execPath, [cli, "recall", "serve", arg], { env: warmEnv, encoding: "utf8" }).stdout;
  const waitFor = (up: boolean) => {
    for (const until = Date.now() + 20_000; Date.now() < until;) {
      if (/^running/.test(serve("--status")) === up) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  };
  const stop = () => {
    serve("--stop");
    waitFor(false);
  };
  const query = (needle: string) => [cli, "recall", "--global", "--format", "json", needle];
  for (const [cls, needle] of Object.entries(q))
    cases.push({
      name: `first call query ${cls}`,
      args: query(needle),
      env: warmEnv,
      before: stop,
      after: () => waitFor(true),
    });
  // the same first calls on another Node (`--node PATH`: Node 22/24, whose V8 reads one-shot flags differently and
  // has a compile cache), against its own bare start in the same rotation; the warm process such a call leaves is
  // replaced by one of this Node afterwards (untimed), so the other rows keep theirs
  if (otherNode) {
    const v = spawnSync(otherNode, ["--version"], { encoding: "utf8" }).stdout.trim();
    cases.push({ name: `${v}: bare node -e 0`, cmd: otherNode, args: ["-e", "0"] });
    for (const [cls, needle] of Object.entries(q))
      cases.push({
        name: `${v}: first call query ${cls}`,
        cmd: otherNode,
        args: query(needle),
        env: warmEnv,
        before: stop,
        after: () => {
          waitFor(true);
          stop();
          spawnSync(process.execPath, query(needle), { env: warmEnv });
          waitFor(true);
        },
      });
  }
  const rg = spawnSync("rg", ["--version"]).status === 0;
  if (rg)
    for (const [cls, needle] of Object.entries(q))
      cases.push({ name: `rg -l ${cls}`, cmd: "rg", args: ["-l", "-F", "-i", needle, corpusRoot] });
  return { cases, cleanup: () => rmSync(emptyHome, { recursive: true, force: true }) };
}

/** One printed line per case: ms, the difference to bare node, and for queries the ratio to rg. */
export function coldReport(t: Map<string, number>, print: (k: string, v: string) => void): void {
  const bare = t.get("bare node -e 0")!;
  print("cold: bare node -e 0", `${bare.toFixed(0)} ms`);
  for (const [name, ms] of t) {
    if (name === "bare node -e 0" || name.startsWith("rg ")) continue;
    const other = /^(v[\d.]+): /.exec(name)?.[1]; // another Node's rows: against its own bare start
    if (other) {
      const base = t.get(`${other}: bare node -e 0`)!;
      print(`cold: ${name}`, `${ms.toFixed(0)} ms${ms === base ? "" : ` = node +${(ms - base).toFixed(0)} ms`}`);
      continue;
    }
    const cls = /query (\w+)$/.exec(name)?.[1];
    const rg = cls ? t.get(`rg -l ${cls}`) : undefined;
    print(
      `cold: ${name}`,
      `${ms.toFixed(0)} ms = node +${(ms - bare).toFixed(0)} ms${rg ? ` (${(ms / rg).toFixed(1)}× rg -l)` : ""}`,
    );
  }
  for (const [name, ms] of t) if (name.startsWith("rg ")) print(`cold: ${name}`, `${ms.toFixed(0)} ms`);
}
