/**
 * The host's side of the spawner (spawner-main.ts, dist/spawner.js): a `Launcher` whose forks happen in a small
 * helper process instead of the large extension host (a fork copies the forking process's page tables: 40–130 ms
 * on the host's thread under load, #24).
 *
 * Per agent the host listens on two one-shot Unix sockets in a private 0700 directory (files 0600, gone once the
 * spawner connected); the spawner gives the connected sockets to the child as its stdio, so the agent's bytes
 * reach the host with no process in between. Pid, start error and exit come back over the IPC channel.
 *
 * The spawner starts lazily on the first launch, in its own session, with `process.execPath` and
 * `ELECTRON_RUN_AS_NODE=1`; its socket directory and sockets (spawner-sockets.ts) are made, chmodded and removed on
 * the thread pool, never on the caller's thread (a directory that cannot be made is a spawner that cannot start).
 * When it cannot start or dies, the launcher logs once and falls back to the direct path for good: launches not yet
 * started are started directly, agents it already started keep their sockets, get a parent-death guard from `guard`
 * and are watched by pid. POSIX only: on Windows use `directLauncher`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Server, Socket } from "node:net";
import { PassThrough } from "node:stream";
import type { Logger } from "../log";
import { isPosix } from "./host";
import { directLauncher, type LaunchExit, type LaunchSpec, type Launched, type Launcher } from "./launcher";
import { runToEnd, type RunRequest, type RunResult } from "./run-to-end";
import { background } from "../util/unexpected";
import type { SpawnerReply, SpawnerRequest } from "./spawner-protocol";
import type { PtyModule } from "./pty";
import { RemotePty, type PtyHandle, type PtySpawnOptions } from "./spawner-pty";
import { SpawnerSockets } from "./spawner-sockets";

/** How often a process the dead spawner had started is checked for exit. */
export const ORPHAN_POLL_MS = 500;

export interface SpawnerOptions {
  /** dist/spawner.js. */
  script: string;
  logger?: Logger;
  /** A parent-death guard for processes left unguarded when the spawner is gone; returns its stop. */
  guard?: (pid: number) => () => void;
}

interface Entry {
  spec: LaunchSpec;
  pid?: number;
  servers: Server[];
  stdin: PassThrough;
  stdout: PassThrough;
  stderr: PassThrough;
  io?: Socket;
  err?: Socket;
  /** Started here after all (no spawner, or its sockets failed): no longer pending with the spawner. */
  direct?: boolean;
  /** The child exited: a socket accepted from now on is closed once read to its end. */
  exited?: boolean;
  started: (pid: number | undefined) => void;
  exit: (e: LaunchExit) => void;
}

/**
 * A child's stdio sockets are half-open (stdin can end while stdout still reads), so neither closes by itself when
 * the child is gone: an open socket is a GC root that would hold the agent's streams and, through their listeners,
 * its whole session. Once the child exited, each goes when its last bytes were read.
 */
function closeWhenRead(sock: Socket): void {
  if (sock.readableEnded) sock.destroy();
  else sock.once("end", () => sock.destroy());
}

type Pending =
  | { entry: Entry }
  | { run: (r: RunResult) => void; req: Extract<SpawnerRequest, { t: "run" }> }
  | { pty: RemotePty; servers: Server[]; nodePty: PtyModule };

export class SpawnerLauncher implements Launcher {
  readonly #opts: SpawnerOptions;
  #proc: ChildProcess | undefined;
  #dead = false;
  #disposed = false;
  /** The private socket directory (spawner-sockets.ts), made as the spawner starts. */
  #sockets: SpawnerSockets | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(opts: SpawnerOptions) {
    this.#opts = opts;
  }

  /** The spawner's pid once started (tests). */
  get spawnerPid(): number | undefined {
    return this.#proc?.pid;
  }

  /** False once the spawner failed or died: everything goes the direct way. */
  get alive(): boolean {
    return !this.#dead;
  }

  launch(spec: LaunchSpec): Launched {
    const proc = this.#ensure();
    if (!proc) return directLauncher.launch(spec);
    const id = this.#nextId++;
    let resolveStarted!: (pid: number | undefined) => void;
    let resolveExit!: (e: LaunchExit) => void;
    const started = new Promise<number | undefined>((r) => (resolveStarted = r));
    const exit = new Promise<LaunchExit>((r) => (resolveExit = r));
    const entry: Entry = {
      spec,
      servers: [],
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      started: resolveStarted,
      exit: (e) => {
        this.#done(id);
        resolveExit(e);
        entry.exited = true;
        for (const sock of [entry.io, entry.err]) if (sock) closeWhenRead(sock);
      },
    };
    this.#pending.set(id, { entry });
    this.#ref();
    Promise.all([
      this.#sockets!.listen(entry.servers, `${id}-io.sock`, (sock) => {
        entry.io = sock;
        sock.pipe(entry.stdout);
        if (entry.pid !== undefined) entry.stdin.pipe(sock);
        // the exit (over IPC) can be handled before this connection is: CI once kept both sockets of a quick child
        if (entry.exited) closeWhenRead(sock);
      }),
      this.#sockets!.listen(entry.servers, `${id}-err.sock`, (sock) => {
        entry.err = sock;
        sock.pipe(entry.stderr);
        if (entry.exited) closeWhenRead(sock);
      }),
    ]).then(
      ([io, err]) =>
        this.#send({ t: "spawn", id, file: spec.file, args: spec.args, cwd: spec.cwd, env: spec.env, io, err }),
      (e: Error) => {
        this.#opts.logger?.warn(`spawner sockets failed (${e.message}); starting the process from the host`);
        this.#relaunch(id, entry);
      },
    );
    return {
      get pid() {
        return entry.pid;
      },
      started,
      stdin: entry.stdin,
      stdout: entry.stdout,
      stderr: entry.stderr,
      exit,
      guarded: true,
    };
  }

  /**
   * A pseudo-terminal started by the spawner with node-pty loaded from `modulePath` (`nodePty` is this
   * process's copy, for the fallback); undefined when the spawner is not available (start it directly then).
   */
  spawnPty(
    file: string,
    args: string[],
    opts: PtySpawnOptions,
    nodePty: PtyModule,
    modulePath: string,
  ): PtyHandle | undefined {
    if (!this.#ensure()) return undefined;
    const id = this.#nextId++;
    const pty = new RemotePty({ file, args, opts }, (cols, rows) => this.#send({ t: "resize", id, cols, rows }));
    const servers: Server[] = [];
    this.#pending.set(id, { pty, servers, nodePty });
    this.#ref();
    this.#sockets!.listen(servers, `${id}-pty.sock`, (s) => pty.attach(s)).then(
      (sock) => this.#send({ t: "pty", id, file, args, ...opts, module: modulePath, sock }),
      (e: Error) => {
        this.#opts.logger?.warn(`spawner socket failed (${e.message}); starting the terminal from the host`);
        this.#ptyDirect(id, e);
      },
    );
    background(
      new Promise<void>((r) => pty.onExit(() => r())).then(() => this.#done(id)),
      "watching a terminal the spawner started",
    );
    return pty;
  }

  #ptyDirect(id: number, why: Error): void {
    const p = this.#pending.get(id);
    if (!p || !("pty" in p)) return;
    for (const s of p.servers) s.close();
    p.pty.startDirect(p.nodePty, why);
  }

  /** Runs `file` to completion (git): forks from the spawner when it is up, else from this process. */
  run(req: RunRequest): Promise<RunResult> {
    const msg = { ...req, t: "run" as const, id: this.#nextId++, env: req.env ?? process.env };
    if (!this.#ensure()) return runToEnd(req);
    return new Promise((resolve) => {
      this.#pending.set(msg.id, { run: resolve, req: msg });
      this.#ref();
      this.#send(msg);
    });
  }

  /**
   * Lets the spawner go once nothing is pending with it: it exits. While agents it started still run (their
   * owners stop them after this, in any order), it stays: they end by their stop, or by the spawner's reaping
   * when this process exits.
   */
  dispose(): void {
    this.#disposed = true;
    this.#letGo();
  }

  #letGo(): void {
    if (!this.#disposed || this.#pending.size > 0) return;
    this.#dead = true;
    if (this.#proc?.connected) this.#proc.disconnect();
    this.#sockets?.remove();
  }

  #ensure(): ChildProcess | undefined {
    if (this.#dead || !isPosix()) return undefined;
    if (this.#proc) return this.#proc;
    try {
      // a directory that cannot be made is a spawner given up: launches waiting for it go direct
      this.#sockets = new SpawnerSockets((e) => {
        if (this.#dead) return;
        this.#opts.logger?.warn(`spawner could not start: ${e.message}; starting processes from the host`);
        this.#dead = true;
      });
      const proc = spawn(process.execPath, [this.#opts.script], {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
        stdio: ["ignore", "ignore", "inherit", "ipc"],
        detached: true,
      });
      this.#proc = proc;
      proc.on("message", (m: SpawnerReply) => this.#onMessage(m));
      proc.once("error", (e) => this.#died(`could not start: ${e.message}`));
      proc.once("exit", (code, signal) => this.#died(`exited (code ${code}, signal ${signal})`));
      proc.unref();
      this.#unref();
      return proc;
    } catch (e) {
      this.#opts.logger?.warn(`spawner could not start: ${(e as Error).message}; starting processes from the host`);
      this.#dead = true;
      return undefined;
    }
  }

  #onMessage(m: SpawnerReply): void {
    if (m.t === "ready") return;
    const p = this.#pending.get(m.id);
    if (!p) return;
    if ("run" in p) {
      if (m.t === "ran") {
        this.#done(m.id);
        const { t: _t, id: _id, ...result } = m;
        p.run(result);
      }
      return;
    }
    if ("pty" in p) {
      if (m.t === "spawned") p.pty.spawned(m.pid);
      else if (m.t === "pty-exit") p.pty.exited({ exitCode: m.exitCode, signal: m.signal });
      else if (m.t === "error") {
        this.#opts.logger?.warn(`spawner could not start a terminal (${m.message}); starting it from the host`);
        this.#ptyDirect(m.id, new Error(m.message));
      }
      return;
    }
    const { entry } = p;
    if (m.t === "spawned") {
      entry.pid = m.pid;
      // The spawner closed its copy of the socket before answering, so nothing but the child reads it now.
      if (entry.io) entry.stdin.pipe(entry.io);
      entry.started(m.pid);
    } else if (m.t === "error") {
      this.#fail(m.id, entry, Object.assign(new Error(m.message), { code: m.code }));
    } else if (m.t === "exit") {
      entry.exit({ code: m.code, signal: m.signal });
    }
  }

  #fail(id: number, entry: Entry, error: Error): void {
    for (const s of entry.servers) s.close();
    entry.io?.destroy();
    entry.stdout.end();
    entry.stderr.end();
    entry.started(undefined);
    entry.direct = true;
    entry.exit({ code: null, signal: null, error });
    this.#done(id);
  }

  #died(why: string): void {
    if (!this.#proc) return;
    this.#proc = undefined;
    if (!this.#dead) this.#opts.logger?.warn(`spawner ${why}; starting processes from the host from now on`);
    this.#dead = true;
    this.#sockets?.remove();
    for (const [id, p] of [...this.#pending]) {
      if ("run" in p) {
        this.#pending.delete(id);
        background(runToEnd(p.req).then(p.run), "running a command after the spawner died");
      } else if ("pty" in p) {
        if (p.pty.pid > 0) p.pty.orphaned();
        else this.#ptyDirect(id, new Error(`spawner ${why}`));
      } else if (p.entry.pid === undefined) this.#relaunch(id, p.entry);
      else this.#watchOrphan(p.entry, p.entry.pid);
    }
  }

  /** A launch the spawner never started: start it here, on the same streams. */
  #relaunch(id: number, entry: Entry): void {
    if (entry.direct) return;
    entry.direct = true;
    this.#done(id);
    for (const s of entry.servers) s.close();
    entry.io?.destroy();
    const d = directLauncher.launch(entry.spec);
    entry.stdin.pipe(d.stdin);
    d.stdout.pipe(entry.stdout);
    d.stderr.pipe(entry.stderr);
    d.stdin.on("error", () => {});
    background(
      d.started.then((pid) => {
        entry.pid = pid;
        entry.started(pid);
        if (pid !== undefined) this.#guard(pid, d.exit);
      }),
      "starting a process without the spawner",
    );
    background(d.exit.then(entry.exit), "watching a process started without the spawner");
  }

  /** A process the spawner started before it died: nobody reaps it for us, so poll its pid; guard it. */
  #watchOrphan(entry: Entry, pid: number): void {
    const exit = new Promise<LaunchExit>((resolve) => {
      const timer = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "EPERM") return;
          clearInterval(timer);
          resolve({ code: null, signal: null });
        }
      }, ORPHAN_POLL_MS);
    });
    this.#guard(pid, exit);
    background(exit.then(entry.exit), "watching a process the spawner had started");
  }

  /** The per-process parent-death guard, for processes the spawner no longer watches. */
  #guard(pid: number, exit: Promise<LaunchExit>): void {
    const stop = this.#opts.guard?.(pid);
    if (stop) background(exit.then(stop), "releasing the parent-death guard");
  }

  #send(msg: SpawnerRequest): void {
    if (this.#proc?.connected) this.#proc.send(msg);
  }

  #done(id: number): void {
    if (!this.#pending.delete(id) || this.#pending.size > 0) return;
    this.#unref();
    this.#letGo();
  }

  // The IPC channel keeps this process alive only while an answer is awaited.
  #ref(): void {
    (this.#proc?.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  #unref(): void {
    (this.#proc?.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}
