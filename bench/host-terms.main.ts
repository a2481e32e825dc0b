/**
 * Hosted agents' terminals shown by attached editors (#35 item 7), figures beside their baseline in the same run; no
 * asserts. A terminal's output, `--chunks` chunks of 4 KB (default 5,000: 20 MB), through the host's
 * EditorTerminals: with no client (the baseline: only its bounded recent output is kept), to one client over a
 * real socket that reads everything, and to one that reads nothing (its output is dropped past the cap, the host
 * never waits). Printed: the host's time to take the output, what the client got, the host's memory after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { EditorTerminals } from "../src/core/host/editor-terminals";
import { send } from "../src/core/host/wire";
import type { TerminalView } from "../src/core/ports";

const at = process.argv.indexOf("--chunks");
const CHUNKS = at > 0 ? Number(process.argv[at + 1]) : 5_000;
const CHUNK = "y".repeat(4095).concat("\n");

/** A terminal view whose output the bench drives. */
function fakeView(id: string, cwd: string): { view: TerminalView; out: (s: string) => void; exit: () => void } {
  const outs: ((s: string) => void)[] = [];
  const exits: ((e: { exitCode: number | null; signal: string | null }) => void)[] = [];
  const view: TerminalView = {
    terminalId: id,
    sessionId: "s",
    commandLine: "yes",
    cwd,
    onOutput: (l) => (outs.push(l), { dispose: () => {} }),
    onExit: (l) => (exits.push(l), { dispose: () => {} }),
    write: () => {},
    resize: () => {},
  };
  return {
    view,
    out: (s) => outs.forEach((l) => l(s)),
    exit: () => exits.forEach((l) => l({ exitCode: 0, signal: null })),
  };
}

async function pair(dir: string, name: string): Promise<{ host: Socket; client: Socket }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(join(dir, name), r));
  const accepted = new Promise<Socket>((r) => server.once("connection", r));
  const client = connect(join(dir, name));
  const host = await accepted;
  server.close();
  return { host, client };
}

async function run(dir: string, name: string, client: "none" | "reading" | "stalled"): Promise<void> {
  const terms = new EditorTerminals({ push: (s, m) => void send(s, m) });
  let got = 0;
  let sockets: { host: Socket; client: Socket } | undefined;
  if (client !== "none") {
    sockets = await pair(dir, `${name}.sock`);
    if (client === "reading") sockets.client.on("data", (d: Buffer) => (got += d.length));
    else sockets.client.pause();
    await terms.offer(sockets.host, { fs: false, terminals: true, roots: [dir] });
  }
  const t = fakeView(name, dir);
  terms.forSession(dir, "bench").onTerminalCreated(t.view);
  await new Promise((r) => setTimeout(r, 50)); // shown (its folder checked) before the output starts
  const heap = process.memoryUsage().heapUsed;
  const start = performance.now();
  for (let i = 0; i < CHUNKS; i++) {
    t.out(CHUNK);
    if (i % 64 === 0) await new Promise((r) => setImmediate(r)); // the socket drains as the pty's reads would let it
  }
  const took = performance.now() - start;
  const unsent = sockets?.host.writableLength ?? 0;
  const grown = (process.memoryUsage().heapUsed - heap) / 1e6;
  t.exit();
  if (client === "reading") await new Promise((r) => setTimeout(r, 200));
  const mb = (CHUNKS * CHUNK.length) / 1e6;
  console.log(
    `${name.padEnd(34)} ${mb.toFixed(0)} MB in ${took.toFixed(0)} ms (${(mb / (took / 1000)).toFixed(0)} MB/s)` +
      `  client got ${(got / 1e6).toFixed(1)} MB  unsent ${(unsent / 1e6).toFixed(2)} MB  heap +${grown.toFixed(1)} MB`,
  );
  sockets?.host.destroy();
  sockets?.client.destroy();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-terms-"));
  try {
    await run(dir, "baseline: no client", "none");
    await run(dir, "one client reading", "reading");
    await run(dir, "one client reading nothing", "stalled");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
