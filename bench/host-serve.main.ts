/**
 * Files served by an attached editor (#35 item 7), one figure beside its baseline in the same run; no asserts.
 * A session's `readText` of a 16 KB file, `--n` times (default 500) one after the other, through the host's
 * EditorServe and a real socket to a client that answers from memory (what the round trip over the host's wire
 * costs: the editor's own buffer read is not in it), against the disk read the host does without a client.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DiskWorkspaceFiles } from "../src/core/acp/disk-workspace-files";
import { EditorServe } from "../src/core/host/editor-serve";
import type { HostPush } from "../src/core/host/protocol";
import { readLines, send } from "../src/core/host/wire";
import { nullLogger } from "../src/core/log";
import type { WorkspaceFiles } from "../src/core/ports";

const at = process.argv.indexOf("--n");
const N = at > 0 ? Number(process.argv[at + 1]) : 500;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function time(name: string, files: WorkspaceFiles, path: string): Promise<void> {
  const lat: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await files.readText(path);
    lat.push(performance.now() - t);
  }
  console.log(
    `${name.padEnd(36)} ${N} reads  p50 ${pct(lat, 0.5)!.toFixed(3)} ms  p99 ${pct(lat, 0.99)!.toFixed(3)} ms`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-serve-"));
  const path = join(dir, "a.txt");
  const text = "x".repeat(80).concat("\n").repeat(200); // 16 KB
  writeFileSync(path, text);
  const server = createServer();
  await new Promise<void>((r) => server.listen(join(dir, "s.sock"), r));
  const accepted = new Promise<Socket>((r) => server.once("connection", r));
  const client = connect(join(dir, "s.sock"));
  const hostSide = await accepted;
  const serve = new EditorServe({ push: (s, m) => send(s, m), logger: nullLogger });
  serve.offer(hostSide, { fs: true, roots: [dir] });
  // the client: answers each ask from memory; the host reads its answers as the server does
  readLines(client, (m) => {
    const push = m as HostPush;
    if (push.t === "serve") send(client, { t: "served", id: 0, ask: push.ask, answer: { done: true, content: text } });
  });
  readLines(hostSide, (m) => {
    const r = m as { t: string; ask: number; answer: never };
    if (r.t === "served") serve.answer(hostSide, r.ask, r.answer);
  });
  await time("baseline: the disk (no editor)", new DiskWorkspaceFiles(), path);
  await time("served by an editor over the socket", serve.files(dir), path);
  client.destroy();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
