/**
 * The spawner: a small node process that forks for the extension host (bundled as dist/spawner.js; the host
 * side is spawner-client.ts). Forking the host copies its page tables, tens of milliseconds on its thread under
 * load; forking this process costs a fraction of that, off the host's thread.
 *
 * - `spawn`: connects to the host's two one-shot Unix sockets and hands them to the child as its stdio
 *   (fd 0 and 1 share the first, fd 2 the second): bytes go agent ↔ host without passing through here. The
 *   spawner closes its copies right after the fork, then reports the pid, a start error, and the exit.
 * - `run`: runs a short command to completion (git) and returns its stdout, stderr and exit.
 * - `pty`: starts a pseudo-terminal with node-pty (the module path comes from the host) and proxies its bytes
 *   over the host's one-shot socket both ways; `resize` resizes it. When the socket cannot take more (a slow
 *   host), the pty is paused until it drains, so nothing piles up here.
 * - Parent death: when the IPC channel closes (the host died or let go), every process group started here that
 *   is still alive gets SIGTERM, then SIGKILL after GUARD_KILL_GRACE_MS; then the spawner exits. It runs in its
 *   own session, so a signal to the host's group does not take it down before it has done that.
 * Imports nothing of the engine: it stays small so it starts fast and forks cheaply.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { spawnPtyKeepingTail } from "./pty-tail";
import { runToEnd } from "./run-to-end";
import type { SpawnerReply, SpawnerRequest } from "./spawner-protocol";

export const GUARD_KILL_GRACE_MS = 2_000;
const POLL_MS = 50;

const groups = new Set<number>();

function send(msg: SpawnerReply): void {
  if (process.connected) process.send!(msg);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone already
  }
}

function connectTo(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(path);
    sock.once("connect", () => resolve(sock));
    sock.once("error", reject);
  });
}

async function startChild(msg: Extract<SpawnerRequest, { t: "spawn" }>): Promise<void> {
  let io: Socket | undefined;
  let err: Socket | undefined;
  let child: ChildProcess | undefined;
  try {
    io = await connectTo(msg.io);
    err = await connectTo(msg.err);
    child = spawn(msg.file, msg.args, { cwd: msg.cwd, env: msg.env, detached: true, stdio: [io, io, err] });
  } catch (e) {
    send({ t: "error", id: msg.id, message: (e as Error).message, code: (e as NodeJS.ErrnoException).code });
    return;
  } finally {
    // Our copies only: the child holds its own, so the host sees EOF when the child's side closes.
    io?.destroy();
    err?.destroy();
  }
  const started = child;
  started.once("error", (e: NodeJS.ErrnoException) => {
    if (started.pid === undefined) send({ t: "error", id: msg.id, message: e.message, code: e.code });
  });
  if (started.pid === undefined) return;
  const pid = started.pid;
  groups.add(pid);
  send({ t: "spawned", id: msg.id, pid });
  started.once("exit", (code, signal) => {
    if (!groupAlive(pid)) groups.delete(pid);
    send({ t: "exit", id: msg.id, code, signal });
  });
}

/** The host is gone: end every group still alive, SIGTERM first, then SIGKILL. */
async function reap(): Promise<void> {
  for (const pid of groups) signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + GUARD_KILL_GRACE_MS;
  while ([...groups].some(groupAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  for (const pid of groups) signalGroup(pid, "SIGKILL");
  process.exit(0);
}

type Pty = import("node-pty").IPty;
const ptys = new Map<number, Pty>();

async function startPty(msg: Extract<SpawnerRequest, { t: "pty" }>): Promise<void> {
  let sock: Socket | undefined;
  let term: Pty;
  try {
    sock = await connectTo(msg.sock);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodePty = require(msg.module) as typeof import("node-pty");
    const { cols, rows, name, cwd, env } = msg;
    term = spawnPtyKeepingTail(nodePty, msg.file, msg.args, { cols, rows, name, cwd, env });
  } catch (e) {
    sock?.destroy();
    send({ t: "error", id: msg.id, message: (e as Error).message, code: (e as NodeJS.ErrnoException).code });
    return;
  }
  const io = sock;
  const pid = term.pid;
  groups.add(pid);
  ptys.set(msg.id, term);
  send({ t: "spawned", id: msg.id, pid });
  term.onData((data) => {
    if (!io.write(data)) term.pause(); // resumed on drain: a slow host never makes this buffer grow
  });
  io.on("drain", () => term.resume());
  io.setEncoding("utf8");
  io.on("data", (input: string) => term.write(input));
  io.on("error", () => {});
  term.onExit(({ exitCode, signal }) => {
    ptys.delete(msg.id);
    if (!groupAlive(pid)) groups.delete(pid);
    io.end();
    send({ t: "pty-exit", id: msg.id, exitCode, signal });
  });
}

function handle(msg: SpawnerRequest): Promise<void> {
  switch (msg.t) {
    case "spawn":
      return startChild(msg);
    case "pty":
      return startPty(msg);
    case "resize":
      try {
        ptys.get(msg.id)?.resize(msg.cols, msg.rows);
      } catch {
        // the terminal is closing: its exit is on the way
      }
      return Promise.resolve();
    case "run":
      return runToEnd(msg).then((r) => send({ t: "ran", id: msg.id, ...r }));
  }
}

process.on("message", (msg: SpawnerRequest) => {
  const work = handle(msg);
  work.catch((e: Error) => process.stderr.write(`[acp-threads spawner] ${e.stack ?? e.message}\n`));
});
process.on("disconnect", () => {
  reap().catch(() => process.exit(1));
});
send({ t: "ready", pid: process.pid });
