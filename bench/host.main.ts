/**
 * Thread host bench (#35). Three figures, each beside a baseline measured in the same run; no asserts.
 * 1. Update delivery host → client: a hosted thread (test/fixtures/host/stub-host.ts: the host's real feed, socket
 *    and wire, the records appended to a real thread file as a session appends them) gets 2,000 records/s for
 *    `--seconds` (default 5) with three clients attached; per record, the time from its append to its arrival at
 *    each client (p50, p99, max). Baseline: the same records written straight to three sockets by a bare server
 *    (what the feed adds: the file read and the batching). The clients run in this process, as the host does.
 *    Run twice, with and without a window listening to the host's events (its `session` rows, pushed before each
 *    event of a thread whose row changed, counted: records change no row, so none should come), and twice with a
 *    recall import running meanwhile (a client's `recall.import` of a synthetic Codex corpus, served in the host's
 *    engine process: core/host/host-worker.ts), its rows beside those without in the same run; and twice with the
 *    three clients over in-process connections (server.ts `connect`), their p99 as a ratio of the socket's.
 * 2. Host RSS idle: `acp-threads host serve` alone, 2 s after it listens; baseline: a bare node process. Then the
 *    same host during and after a recall import (its engine process started, used, and gone once idle).
 * 3. `acp-threads attach` to its first byte of output (a stored thread, the host up), median of `--n` (default
 *    10); baseline: node printing one byte.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { connectHost, connectInProcess } from "../src/core/host/client";
import { hostPlace } from "../src/core/host/door";
import { writeCorpus } from "./recall-corpus";
import { readLines } from "../src/core/host/wire";
import type { HostPush } from "../src/core/host/protocol";
import { ThreadStore } from "../src/core/store/thread-store";
import { stubHost } from "../test/fixtures/host/stub-host";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg("seconds", 5);
const N = arg("n", 10);
const RATE = 2000;
const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const ENGINE_PROCESS = join(__dirname, "..", "..", "dist", "engine-process-worker.js");
/** The synthetic Codex corpus an import reads meanwhile: more than the feed's seconds' worth (it is cancelled). */
const CORPUS_MESSAGES = arg("corpus", 40_000);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const f = (n: number) => n.toFixed(2);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Appends RATE records/s for SECONDS through `emit(k)`, k records at a time as they fall due. */
async function drive(emit: (k: number) => void): Promise<void> {
  const start = performance.now();
  let sent = 0;
  while (performance.now() - start < SECONDS * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE);
    if (due > sent) {
      emit(due - sent);
      sent = due;
    }
    await sleep(1);
  }
}

function report(name: string, lat: number[]): number {
  console.log(
    `${name.padEnd(34)} ${String(lat.length).padStart(6)} deliveries  p50 ${f(pct(lat, 0.5))} ms  p99 ${f(pct(lat, 0.99))} ms  max ${f(pct(lat, 1))} ms`,
  );
  return pct(lat, 0.99);
}

/** `inProcess`: the three clients over in-process connections (server.ts `connect`), not the socket. */
async function feed(home: string, window: boolean, corpus?: string, inProcess = false): Promise<number> {
  const stub = await stubHost(home, { engineProcess: ENGINE_PROCESS });
  const lat: number[] = [];
  const client = (name: string) =>
    inProcess ? connectInProcess(stub.host.connect(), { client: name }) : stub.client(name);
  const clients = await Promise.all([1, 2, 3].map((i) => client(`bench ${i}`)));
  const listener = window ? await stub.client("a window listening to events") : undefined;
  let rows = 0;
  listener?.onPush((m) => void (m.t === "session" && rows++));
  await listener?.request({ t: "events" });
  for (const c of clients) {
    c.onPush((m) => {
      if (m.t !== "records") return;
      const now = performance.now();
      for (const r of m.records) if (r.kind === "agent_message") lat.push(now - Number(r.text));
    });
    await c.request({ t: "attach", threadId: stub.threadId, from: 0 });
  }
  const importer = corpus ? await stub.client("an importing client") : undefined;
  const stopImport = new AbortController();
  let imported: string | undefined;
  const importing = importer
    ?.engine({ op: "recall.import", codex: { root: corpus!, allHistory: true } }, { signal: stopImport.signal })
    .then(
      (s) => (imported = s[s.length - 1]?.cancelled ? "cancelled at the end" : "finished before the end"),
      (e: unknown) => (imported = `failed: ${String(e)}`),
    );
  await drive((k) => stub.append(Array.from({ length: k }, () => String(performance.now()))));
  await sleep(300);
  stopImport.abort();
  await importing;
  const also = `${window ? ", a window listening" : ""}${corpus ? ", an import running" : ""}`;
  const p99 = report(`thread host feed (3 ${inProcess ? "in-process " : ""}clients${also})`, lat);
  if (importer) console.log(`  the import meanwhile: ${imported}`);
  importer?.close();
  if (listener) console.log(`  session rows pushed to the window meanwhile: ${rows}`);
  for (const c of clients) c.close();
  listener?.close();
  stub.end();
  await stub.host.stop();
  return p99;
}

async function delivery(home: string): Promise<void> {
  // alternated, each twice: the machine's load and the first run's warm-up fall on all
  const corpus = writeCorpus(join(home, "corpus"), CORPUS_MESSAGES).root;
  // [a window listening, an import running, the clients in process]
  const runs: [boolean, boolean, boolean][] = [
    [false, false, false],
    [false, false, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
    [false, false, true],
    [true, false, false],
    [false, true, false],
  ];
  const p99 = { socket: [] as number[], inProcess: [] as number[] };
  for (const [i, [window, importing, inProcess]] of runs.entries()) {
    const dir = join(home, `feed-${i}`);
    mkdirSync(dir);
    const p = await feed(dir, window, importing ? corpus : undefined, inProcess);
    if (!window && !importing) p99[inProcess ? "inProcess" : "socket"].push(p);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `  in-process vs socket clients, p99 (mean of 2 runs each): ${f(mean(p99.inProcess))} ms / ${f(mean(p99.socket))} ms = ${f(mean(p99.inProcess) / mean(p99.socket))}`,
  );

  // baseline: a bare server writing the same lines to three sockets
  const path = join(home, "bare.sock");
  const peers: Socket[] = [];
  const server = createServer((s) => peers.push(s));
  await new Promise<void>((r) => server.listen(path, r));
  const base: number[] = [];
  const socks = await Promise.all(
    [1, 2, 3].map(
      () =>
        new Promise<Socket>((r) => {
          const s = connect(path, () => r(s));
        }),
    ),
  );
  for (const s of socks)
    readLines(s, (m) => {
      const now = performance.now();
      for (const r of (m as Extract<HostPush, { t: "records" }>).records)
        base.push(now - Number((r as { text: string }).text));
    });
  while (peers.length < 3) await sleep(5);
  await drive((k) => {
    const records = Array.from({ length: k }, () => ({ kind: "agent_message", text: String(performance.now()) }));
    const line = `${JSON.stringify({ t: "records", threadId: "x", from: 0, records })}\n`;
    for (const p of peers) p.write(line);
  });
  await sleep(300);
  report("baseline: bare socket writes", base);
  for (const s of socks) s.destroy();
  server.close();
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await sleep(20);
}

/** The host's child processes (its engine process while it runs). */
function children(pid: number): number[] {
  try {
    const ids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return ids ? ids.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

/**
 * The host's RSS (and its engine process's) while it imports, and the host's once the engine process has ended (2 s
 * more).
 */
async function importedIdle(home: string, pid: number): Promise<void> {
  const corpus = writeCorpus(join(home, "..", "idle-corpus"), 5000).root;
  const conn = await connectHost({ home, client: "bench importer" });
  if (!conn) throw new Error("no host to import with");
  let peak = 0;
  let peakChild = 0;
  const watch = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
    for (const c of children(pid)) {
      try {
        peakChild = Math.max(peakChild, rssMb(c));
      } catch {
        // it ended meanwhile
      }
    }
  }, 50);
  const sums = await conn.engine({ op: "recall.import", own: true, codex: { root: corpus, allHistory: true } });
  clearInterval(watch);
  conn.close();
  await until(() => children(pid).length === 0);
  await sleep(2000);
  const messages = sums.reduce((n, s) => n + s.messages, 0);
  console.log(
    `host RSS during an import (${messages} messages): peak ${f(peak)} MB (its engine process: ${f(peakChild)} MB)   idle after it (the process gone): ${f(rssMb(pid))} MB`,
  );
}

async function idleAndAttach(home: string): Promise<void> {
  const env = { ...process.env, ACP_THREADS_HOME: home };
  const host = spawn(process.execPath, [CLI, "host", "serve"], { env, stdio: "ignore" });
  let up = false;
  const sock = hostPlace(home).socket;
  while (!up) {
    up = await new Promise<boolean>((r) =>
      connect(sock)
        .once("connect", function (this: Socket) {
          this.destroy();
          r(true);
        })
        .once("error", () => r(false)),
    );
    if (!up) await sleep(20);
  }
  await sleep(2000);
  const bare = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  await sleep(1000);
  console.log(`host RSS idle: ${f(rssMb(host.pid!))} MB   baseline (bare node): ${f(rssMb(bare.pid!))} MB`);
  bare.kill();
  await importedIdle(home, host.pid!);

  const store = new ThreadStore(home);
  const h = store.create({
    agent: { id: "bench", name: "Bench", command: "bench" },
    mode: "acp",
    cwd: home,
    repoRoot: null,
    gitHead: null,
  });
  h.append({ kind: "user_message", messageId: "u1", text: "hello" });
  h.append({ kind: "agent_message", messageId: "a1", text: "first byte" });
  const id = h.threadId;
  h.close();
  const firstByte = async (args: string[]) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"] });
    await new Promise<void>((r) => child.stdout.once("data", () => r()));
    const ms = performance.now() - t0;
    await new Promise((r) => child.once("close", r));
    return ms;
  };
  const attach: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < N; i++) {
    node.push(await firstByte(["-e", "process.stdout.write('x')"]));
    attach.push(await firstByte([CLI, "attach", id]));
  }
  console.log(
    `attach to first byte: median ${f(pct(attach, 0.5))} ms   baseline (node printing a byte): median ${f(pct(node, 0.5))} ms   (+${f(pct(attach, 0.5) - pct(node, 0.5))} ms)`,
  );
  host.kill("SIGTERM");
  await until(() => host.exitCode !== null || host.signalCode !== null);
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "acp-bench-host-"));
  try {
    console.log(`update delivery, ${RATE} records/s for ${SECONDS} s, three clients:`);
    mkdirSync(join(home, "a"));
    await delivery(join(home, "a"));
    await idleAndAttach(join(home, "b"));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
