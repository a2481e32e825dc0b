/**
 * The history at the size real users reach (#36): 10,000 synthetic threads, about 150 MB of JSONL, and the
 * real CLI (`node dist/cli.js`) timed on it next to bare node started the same way: `threads list --limit 20`
 * on the first run (no index yet: what an upgrade meets), warm (from the recent-threads file) and warm from the
 * SQLite index (that file removed), `threads list --all --format json`, each with
 * the CLI's peak RSS. Figures only, never asserted.
 */
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { ThreadCatalog } from "../src/core/index/thread-catalog";
import type { ThreadQuery } from "../src/core/index/threads-index";
import { serializeRecord, type ThreadRecord } from "../src/core/model/records";
import { recentThreadsPath } from "../src/core/store/change-journal";
import { newThreadId } from "../src/core/store/thread-id";
import { ThreadStore } from "../src/core/store/thread-store";
import { page, pastGroups, wholeGroups } from "../src/vscode/sessions-groups";

export interface ScaleFigure {
  name: string;
  ms: number;
  rssMb: number;
  goal?: string;
}

const AGENTS = [
  { id: "codex", name: "Codex", command: "codex-acp" },
  { id: "claude", name: "Claude", command: "claude-agent-acp" },
  { id: "gemini", name: "Gemini", command: "gemini" },
];
const FILLER = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(8);

/**
 * Writes `count` threads of about `bytesEach` bytes each (a start, then question/answer pairs; every fifth an
 * exec run ending failed, every third started by automation) into `home`/threads, spread over the last 90 days;
 * each file's mtime is its last record's time (as writes over time leave them: what a first run meets).
 */
export function writeCorpus(home: string, count: number, bytesEach = 15_000): { bytes: number } {
  const dir = join(home, "threads");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const now = Date.now();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const t0 = now - Math.round(((count - i) / count) * 90 * 86_400_000);
    const id = newThreadId(t0);
    const agent = AGENTS[i % AGENTS.length]!;
    const cwd = `/home/u/src/project-${i % 7}`;
    const ts = (k: number) => new Date(t0 + k * 1000).toISOString();
    const lines: string[] = [];
    const rec = (r: Record<string, unknown>, k: number) =>
      lines.push(serializeRecord({ v: 1, ts: ts(k), ...r } as unknown as ThreadRecord));
    rec(
      {
        kind: "thread_start",
        threadId: id,
        agent,
        mode: i % 5 === 0 ? "exec" : "acp",
        cwd,
        repoRoot: cwd,
        gitHead: null,
        ...(i % 3 === 0 ? { startedFrom: "automation" } : {}),
      },
      0,
    );
    let size = lines[0]!.length;
    for (let k = 1; size < bytesEach; k++) {
      const line =
        k % 2
          ? serializeRecord({ v: 1, ts: ts(k), kind: "user_message", messageId: `u${k}`, text: `Question ${k}` })
          : serializeRecord({ v: 1, ts: ts(k), kind: "agent_message", messageId: `a${k}`, text: FILLER });
      lines.push(line);
      size += line.length;
    }
    rec({ kind: "meta_patch", patch: { status: i % 5 === 0 ? "failed" : "idle", title: `Task ${i}` } }, 999);
    const text = lines.join("");
    writeFileSync(join(dir, `${id}.jsonl`), text, { mode: 0o600 });
    utimesSync(join(dir, `${id}.jsonl`), new Date(t0 + 999_000), new Date(t0 + 999_000));
    bytes += text.length;
  }
  return { bytes };
}

/** Runs `node args` with `env`; its wall time and peak RSS (reported by a preload at exit). */
export function timeNode(args: string[], env: NodeJS.ProcessEnv, cwd: string): { ms: number; rssMb: number } {
  const preload = join(cwd, "rss-preload.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => process.stderr.write("\\nMAXRSS " + process.resourceUsage().maxRSS + "\\n"));`,
  );
  const t = performance.now();
  const r = spawnSync("node", ["--require", preload, ...args], { env, cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const kb = Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1] ?? 0);
  return { ms, rssMb: kb / 1024 };
}

/** The goals' figures at `count` threads (default 10,000), next to bare node in the same run. */
export function benchScale(cli: string, tmp: string, count = Number(process.env.THREADS_SCALE ?? 10_000)) {
  const home = join(tmp, "scale-home");
  const t = performance.now();
  const { bytes } = writeCorpus(home, count);
  const setupMs = performance.now() - t;
  const env = { ...process.env, ACP_THREADS_HOME: home, NODE_OPTIONS: "" };
  const run = (...a: string[]) => timeNode([cli, "threads", ...a], env, tmp);
  const out: ScaleFigure[] = [];
  const bare = timeNode(["-e", "0"], env, tmp);
  out.push({ name: "bare node (node -e 0)", ...bare });
  rmSync(join(home, "index"), { recursive: true, force: true });
  out.push({ name: "threads list --limit 20, first run", ...run("list", "--all", "--limit", "20"), goal: "≤ 5 s" });
  const warm = [run("list", "--all", "--limit", "20"), run("list", "--all", "--limit", "20")];
  const best = warm.reduce((a, b) => (a.ms <= b.ms ? a : b));
  out.push({
    name: "threads list --limit 20, warm",
    ...best,
    goal: `≤ node + 100 ms (${(bare.ms + 100).toFixed(0)} ms), RSS ≤ 80 MB`,
  });
  // the same list from the SQLite index (#36's stop-33 path): the recent-threads file removed before the run
  const recent = recentThreadsPath(join(home, "index", "threads.sqlite"));
  rmSync(recent, { force: true });
  out.push({
    name: "threads list --limit 20, warm, from the index (SQLite)",
    ...run("list", "--all", "--limit", "20"),
  });
  out.push({ name: "threads list --all --format json", ...run("list", "--all", "--format", "json") });
  return { count, mb: bytes / 1e6, setupMs, figures: out, home };
}

/** A thread another tool wrote into `home`'s threads (no change journal line): the newest, its mtime now. */
function toolThread(home: string): void {
  writeCorpus(join(home, "tool"), 1);
  const dir = join(home, "tool", "threads");
  for (const name of readdirSync(dir)) {
    writeFileSync(join(home, "threads", name), readFileSync(join(dir, name)), { mode: 0o600 });
    rmSync(join(dir, name));
  }
}

/** A thread started and closed through the store (journaled, as this version's writers do). */
function journaledThread(store: ThreadStore, title: string): void {
  const h = store.create({
    agent: AGENTS[0]!,
    mode: "acp",
    cwd: "/home/u/src/project-0",
    repoRoot: null,
    gitHead: null,
  });
  h.patch({ title, status: "idle" });
  h.close();
}

/**
 * The Sessions view's first paint at the same size, its data side in this process with the catalog's worker (as
 * the editor runs it): the first rows and the rows of the first groups the view opens (one page each, whole
 * groups only), then every row in, and a refresh of the unchanged view. From the worker's first message (the
 * baseline: no recent-threads file and the catalog told not to read thread files, as before stop 36; and a
 * filter on it), the newest thread files read without the index (no recent-threads file: a first run; a filter;
 * a damaged file; a folder another tool changed with no journal line), the recent-threads file the worker leaves
 * (current), and that file after other writers changed the history (stale). The catalog starts its worker next
 * to the thread files' read once it is slow (whichever answers first paints, stop 37); one case starts it after
 * them, as stop 36 did (`raceWorker: false`), as its baseline. Medians of `ROUNDS` runs each.
 */
/** Each first-paint case runs this many times (a fresh catalog each): its medians are printed. */
const ROUNDS = 3;

export async function benchFirstPaint(home: string, worker: string): Promise<{ name: string; ms: number }[]> {
  const store = new ThreadStore(home);
  const recent = recentThreadsPath(store.layout.threadIndexDb);
  const filter: ThreadQuery = { agent: "gemini", status: "failed" };
  const noFile = () => rmSync(recent, { force: true });
  const damaged = () => truncateSync(recent, Math.floor(statSync(recent).size / 2));
  const cases: { from: string; q: ThreadQuery; before?: () => void; files?: false; race?: false }[] = [
    { from: "the worker's first message (baseline)", q: {}, before: noFile, files: false },
    { from: "the worker's first message, a filter (baseline)", q: filter, before: noFile, files: false },
    { from: "the thread files, no recent-threads file (first run)", q: {}, before: noFile },
    { from: "the thread files, first run, a filter", q: filter, before: noFile },
    {
      from: "the thread files, a damaged recent-threads file",
      q: {},
      before: damaged,
    },
    { from: "the thread files, a damaged file, the worker after them (stop 36)", q: {}, before: damaged, race: false },
    {
      from: "the thread files, a folder changed with no journal line",
      q: {},
      before: () => toolThread(home),
    },
    { from: "the recent-threads file (current)", q: {} },
    {
      from: "the recent-threads file, stale (5 new, 5 changed since)",
      q: {},
      before: () => {
        for (let i = 0; i < 5; i++) journaledThread(store, `new ${i}`);
        const newest = readdirSync(store.threadsDir).sort().reverse().slice(0, 10); // ids grow with time
        for (const name of newest.filter((n) => n.endsWith(".jsonl")).slice(0, 5))
          store.patchMetadata(name.slice(0, -6), { title: "changed" });
      },
    },
    { from: "the recent-threads file, stale, a filter", q: filter, before: () => journaledThread(store, "newer") },
  ];
  const out: { name: string; ms: number }[] = [];
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const { from, q, before, files, race } of cases) {
    const runs: {
      first: number;
      grouped: number;
      all: number;
      again: number;
      n: number;
      groups: number;
      rows: number;
      total: number;
    }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      before?.();
      (globalThis as { gc?: () => void }).gc?.(); // as a window's fresh start: not the earlier rounds' garbage
      const catalog = new ThreadCatalog(store, { watch: false, worker, firstFromFiles: files, raceWorker: race });
      const allIn = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
      const t0 = performance.now();
      const { threads: first, partialBefore } = await catalog.listFirst(q);
      const firstMs = performance.now() - t0;
      const t1 = performance.now();
      const shown = wholeGroups(first, (m) => m.lastActivity, partialBefore);
      const groups = pastGroups(shown, (m) => m.lastActivity);
      const rows = groups.filter((g) => g.expanded).reduce((n, g) => n + page(g.items).rows.length, 0);
      const grouped = performance.now() - t1;
      await allIn;
      const allMs = performance.now() - t0;
      const t2 = performance.now();
      const all = await catalog.list(q);
      const again = performance.now() - t2;
      catalog.dispose();
      runs.push({
        first: firstMs,
        grouped,
        all: allMs,
        again,
        n: first.length,
        groups: groups.length,
        rows,
        total: all.length,
      });
    }
    const m = (k: keyof (typeof runs)[number]) => median(runs.map((r) => r[k]));
    out.push(
      { name: `first rows from ${from}: ${m("n")} threads`, ms: m("first") },
      {
        name: `  whole groups, by day/month + first page (${m("groups")} groups, ${m("rows")} rows)`,
        ms: m("grouped"),
      },
      { name: "  first paint (first rows + group), goal ≤ 200 ms", ms: median(runs.map((r) => r.first + r.grouped)) },
      { name: `  every row in (worker), ${m("total")} threads`, ms: m("all") },
      { name: "  a refresh of the unchanged view (catalog list)", ms: m("again") },
    );
  }
  return out;
}
