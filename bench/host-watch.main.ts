/**
 * How soon a window learns of a thread host it did not start (#35 issue: detachable threads), one figure beside
 * its baseline in the same run; no asserts. `--n` hosts (default 8) start one after the other in a fresh data home
 * (the first with no host folder yet); for each, the time from its `listen()` to the socket watch telling
 * (socket-watch.ts, what the window uses now) and to the old 2 s poll seeing the socket (host-wiring.ts before:
 * an async stat every 2 s), both running side by side.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { hostPlace } from "../src/core/host/door";
import { ThreadHost } from "../src/core/host/server";
import { watchSocket } from "../src/core/host/socket-watch";
import { nullLogger } from "../src/core/log";

const at = process.argv.indexOf("--n");
const N = at > 0 ? Number(process.argv[at + 1]) : 8;
const OLD_POLL_MS = 2_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-watch-"));
  const home = join(dir, "home");
  mkdirSync(home);
  const socket = hostPlace(home).socket;
  let watched: number | undefined;
  let polled: number | undefined;
  let told = 0;
  const w = watchSocket(socket, home, () => {
    told++;
    watched ??= performance.now();
  });
  const poll = setInterval(() => {
    void stat(socket).then(
      () => (polled ??= performance.now()),
      () => undefined,
    );
  }, OLD_POLL_MS);
  const byWatch: number[] = [];
  const byPoll: number[] = [];
  await sleep(100);
  for (let i = 0; i < N; i++) {
    watched = polled = undefined;
    const host = new ThreadHost({
      home,
      place: hostPlace(home),
      runner: () => Promise.resolve({ exitCode: 0 }),
      logger: nullLogger,
    });
    await host.listen();
    const t = performance.now();
    while (polled === undefined || watched === undefined) await sleep(5);
    byWatch.push(Math.max(0, watched - t));
    byPoll.push(Math.max(0, polled - t));
    await host.stop();
    await sleep(100 + Math.random() * 500); // the next start at another point of the poll's period
  }
  clearInterval(poll);
  w.close();
  const line = (name: string, xs: number[]) =>
    console.log(
      `${name.padEnd(40)} ${N} host starts  p50 ${pct(xs, 0.5).toFixed(1)} ms  max ${Math.max(...xs).toFixed(1)} ms`,
    );
  line("baseline: the old 2 s poll sees it", byPoll);
  line("the socket folder's watch tells", byWatch);
  console.log(`watch calls: ${told} for ${N} starts and ${N} stops (each a look: two async stats)`);
  rmSync(dir, { recursive: true, force: true });
}

void main();
