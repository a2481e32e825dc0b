/**
 * History at scale first (#36, threads-scale.ts): 10,000 threads / 150 MB, the CLI's `threads list` next to bare
 * node, the Sessions view's first paint, a scroll through every row (threads-scroll.ts) and a minute of a working
 * session's ticks (threads-tick.ts). Then thread store figures: snapshot save and restore of 1,000 messages (goal ≤ 100 ms each), append of 1,000
 * records, open (read + fold) of a 10,000-message thread, index rebuild of 1,000 threads. Each figure comes
 * with a baseline measured in the same run (plain JSON + fs calls over the same bytes) and their ratio.
 * Prints figures; asserts nothing.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSyncedIndex, syncThreadIndex } from "../src/core/index/threads-index";
import { readSnapshot, restoreSnapshot } from "../src/core/snapshot/load";
import { saveSnapshot, snapshotFromThread } from "../src/core/snapshot/save";
import { serializeRecord, stampRecord, type RecordInput } from "../src/core/model/records";
import { ThreadStore, type CreateThreadInput } from "../src/core/store/thread-store";
import { benchFirstPaint, benchScale } from "./threads-scale";
import { benchScroll } from "./threads-scroll";
import { benchTick } from "./threads-tick";

export interface BenchFigure {
  name: string;
  ms: number;
  baselineMs: number;
  ratio: number;
  goalMs?: number;
}

const agent = { id: "codex", name: "Codex", command: "/usr/bin/codex-acp" };
const start = (cwd: string): CreateThreadInput => ({ agent, mode: "acp", cwd, repoRoot: cwd, gitHead: null });
const message = (i: number): RecordInput =>
  i % 2 === 0
    ? {
        kind: "user_message",
        messageId: `u${i}`,
        text: `Question ${i}: how does the store handle torn tails under load?`,
      }
    : { kind: "agent_message", messageId: `a${i}`, text: `Answer ${i}: `.padEnd(400, "lorem ipsum dolor sit amet ") };

function time(fn: () => void, runs = 3): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

function figure(name: string, ms: number, baselineMs: number, goalMs?: number): BenchFigure {
  return { name, ms, baselineMs, ratio: ms / Math.max(baselineMs, 0.001), ...(goalMs ? { goalMs } : {}) };
}

function threadOf(store: ThreadStore, dir: string, n: number): string {
  const h = store.create(start(dir));
  h.appendMany(Array.from({ length: n }, (_, i) => message(i)));
  h.close();
  return h.threadId;
}

export function benchThreads(): BenchFigure[] {
  const dir = mkdtempSync(join(tmpdir(), "acp-threads-bench-"));
  try {
    const store = new ThreadStore(join(dir, "home"));
    const out: BenchFigure[] = [];

    // snapshot save / restore of 1,000 messages
    const id1k = threadOf(store, dir, 1000);
    let snapPath = "";
    const save = time(
      () => (snapPath = saveSnapshot(snapshotFromThread(store.read(id1k)), { dir: join(dir, "snaps") })),
    );
    const snapText = readFileSync(snapPath, "utf8");
    const saveBase = time(() => writeFileSync(join(dir, "raw.json"), JSON.stringify(JSON.parse(snapText), null, 2)));
    out.push(figure("snapshot save, 1,000 messages", save, saveBase, 100));
    const restore = time(() => void restoreSnapshot(store, readSnapshot(snapPath), snapPath));
    const restoreBase = time(() => void JSON.parse(readFileSync(snapPath, "utf8")));
    out.push(figure("snapshot restore, 1,000 messages", restore, restoreBase, 100));
    // the specification implementation's own file: 1,000 messages, 400 tool calls with their answers
    const spec = join(__dirname, "../../test/fixtures/snapshots/spec");
    const specFile = join(
      spec,
      readdirSync(spec).find((n) => n.endsWith(".json"))!,
    );
    const specRestore = time(() => void restoreSnapshot(store, readSnapshot(specFile), specFile, { rootDir: dir }));
    const specBase = time(() => void JSON.parse(readFileSync(specFile, "utf8")));
    out.push(figure("snapshot restore, specification file (1,000 msgs)", specRestore, specBase, 100));

    // append of 1,000 records (one record per write, fsync at the end as at a turn boundary)
    const appendMs = time(() => {
      const h = store.create(start(dir));
      for (let i = 0; i < 1000; i++) h.append(message(i));
      h.close();
    });
    const lines = Array.from({ length: 1000 }, (_, i) => serializeRecord(stampRecord(message(i))));
    const appendBase = time(() => {
      const p = join(dir, `raw-${Math.random()}.jsonl`);
      for (const l of lines) appendFileSync(p, l);
    });
    out.push(figure("append 1,000 records", appendMs, appendBase));

    // open (read + fold) of a 10,000-message thread
    const id10k = threadOf(store, dir, 10_000);
    const openMs = time(() => void store.read(id10k));
    const path10k = store.pathFor(id10k);
    const openBase = time(
      () =>
        void readFileSync(path10k, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
    );
    out.push(figure("open 10,000-message thread", openMs, openBase));

    // index rebuild of 1,000 threads (vs a no-op incremental sync of the same index)
    const many = new ThreadStore(join(dir, "many"));
    for (let i = 0; i < 1000; i++) threadOf(many, dir, 4);
    const rebuild = time(() => {
      rmSync(many.layout.threadIndexDb, { force: true });
      openSyncedIndex(many).index.close();
    }, 1);
    const { index } = openSyncedIndex(many);
    const noop = time(() => void syncThreadIndex(index, many), 1);
    index.close();
    out.push(figure("index rebuild, 1,000 threads (baseline: no-op sync)", rebuild, noop));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function scale(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "acp-threads-bench-scale-"));
  try {
    const s = benchScale(join(__dirname, "../../dist/cli.js"), tmp);
    console.log(`${s.count} threads, ${s.mb.toFixed(0)} MB of JSONL (written in ${(s.setupMs / 1000).toFixed(1)} s)`);
    for (const f of s.figures)
      console.log(
        `${f.name.padEnd(52)} ${f.ms.toFixed(0).padStart(8)} ms  RSS ${f.rssMb.toFixed(0).padStart(4)} MB${f.goal ? `  goal ${f.goal}` : ""}`,
      );
    console.log("Sessions view, in this process:");
    const worker = join(__dirname, "../../dist/catalog-worker.js");
    for (const f of [
      ...(await benchFirstPaint(s.home, worker)),
      ...(await benchScroll(new ThreadStore(s.home), worker)),
      ...(await benchTick(new ThreadStore(s.home), worker)),
    ])
      console.log(`${f.name.padEnd(70)} ${f.ms.toFixed(f.ms < 10 ? 2 : 0).padStart(6)} ms`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module)
  void scale().then(() => {
    for (const f of benchThreads()) {
      const goal = f.goalMs ? `  goal ≤ ${f.goalMs} ms ${f.ms <= f.goalMs ? "met" : "MISSED"}` : "";
      console.log(
        `${f.name.padEnd(52)} ${f.ms.toFixed(1).padStart(8)} ms  baseline ${f.baselineMs.toFixed(1).padStart(7)} ms  ratio ${f.ratio.toFixed(2)}${goal}`,
      );
    }
  });
