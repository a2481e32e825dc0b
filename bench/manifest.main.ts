/**
 * The plain folder's manifest cache (core/ledger/manifest-cache.ts) on the calling thread (the extension host's, #35):
 * for folders of 10k, 50k and 100k files (rows like the real ones: a path, size, mtime, inode and content state), the
 * time the thread is busy (event-loop utilisation) in a session end's save (the rows' snapshot and JSON.stringify,
 * then the write) and the next start's load (the read, JSON.parse and the rows' checks). Baseline in the same run:
 * the same bytes written (writeFileAtomicAsync) and read back (readFile) with no JSON, on the same thread. Each with
 * its longest stretch without a turn of the event loop (the cache is written a chunk and read a slice at a time).
 * Median of 7. Prints figures; asserts nothing.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadManifestCache, saveManifestCache, type ManifestEntries } from "../src/core/ledger/manifest-cache";
import { nullLogger } from "../src/core/log";
import { writeFileAtomicAsync } from "../src/core/store/atomic-write";

const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function entries(n: number): ManifestEntries {
  const out: ManifestEntries = new Map();
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const size = 200 + ((i * 7919) % 40_000);
    const id = (BigInt(i) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40);
    out.set(`src/m${i % 25}/d${Math.floor(i / 20)}/file-${i % 20}.ts`, {
      size,
      mtimeMs: now - i * 1000.123,
      ino: 1_000_000 + i,
      state: { id, size, stored: true },
    });
  }
  return out;
}

/** The one cache file in `dir` (a sha1-named JSON). */
const cacheFile = (dir: string) =>
  join(
    dir,
    readdirSync(dir).find((f) => /^[0-9a-f]{16}\.json$/.test(f))!,
  );

/**
 * The calling thread's busy ms while `fn` runs to the end (its awaits included: the thread pool's time is not), and
 * its longest stretch without a turn of the event loop (the longest freeze a user would see).
 */
async function busy(fn: () => Promise<unknown>): Promise<{ busy: number; longest: number }> {
  let live = true;
  let last = performance.now();
  let longest = 0;
  const spin = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (live) setImmediate(spin);
  };
  const t0 = performance.now();
  const u0 = performance.eventLoopUtilization();
  setImmediate(spin);
  await fn();
  live = false;
  spin();
  const u = performance.eventLoopUtilization(u0);
  return { busy: u.utilization * (performance.now() - t0), longest };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-manifest-"));
  try {
    console.log(
      "files    bytes    save ms busy/longest (baseline write)   load ms busy/longest (baseline read)   ratio busy save / load",
    );
    for (const n of [10_000, 50_000, 100_000]) {
      const rows = entries(n);
      const root = join(dir, `ws-${n}`);
      const [save, load, write, read] = [[], [], [], []] as { busy: number; longest: number }[][];
      let bytes = 0;
      for (let r = 0; r < RUNS; r++) {
        save.push(await busy(() => saveManifestCache(dir, root, rows, nullLogger)));
        load.push(
          await busy(async () => {
            if ((await loadManifestCache(dir, root)).size !== n) throw new Error("the cache did not load back");
          }),
        );
        const raw = join(dir, `raw-${n}.json`);
        const text = await readFile(cacheFile(dir), "utf8");
        bytes = Buffer.byteLength(text);
        write.push(await busy(() => writeFileAtomicAsync(raw, text)));
        read.push(await busy(() => readFile(raw, "utf8")));
        rmSync(cacheFile(dir));
      }
      const m = (xs: { busy: number; longest: number }[]) => ({
        busy: median(xs.map((x) => x.busy)),
        longest: median(xs.map((x) => x.longest)),
      });
      const [s, l, w, rd] = [m(save), m(load), m(write), m(read)];
      const pair = (x: { busy: number; longest: number }) => `${x.busy.toFixed(0)}/${x.longest.toFixed(0)}`;
      console.log(
        `${String(n).padStart(7)}  ${(bytes / 1e6).toFixed(1).padStart(5)} MB  ${pair(s).padStart(9)} (${pair(w)})` +
          `                 ${pair(l).padStart(9)} (${pair(rd)})                 ` +
          `${(s.busy / w.busy).toFixed(0)}× / ${(l.busy / rd.busy).toFixed(0)}×`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
