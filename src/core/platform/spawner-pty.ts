/**
 * The host's handle on a pseudo-terminal the spawner started (#24): node-pty's `IPty` surface that the terminal
 * code uses (pid, onData, onExit, write, resize, kill, pause/resume), over a per-terminal Unix socket that carries
 * only the terminal's bytes (no JSON per chunk); pid, resize and exit go over the spawner's IPC channel.
 *
 * The pid is 0 until the spawner answered (`started` resolves with it). The exit is reported once both the exit
 * report arrived and the socket ended, so every byte came first. When the spawner dies before starting it, the
 * terminal is started here directly on the same handle; when it dies while the terminal runs, the terminal's
 * group is killed and the exit says SIGHUP (exit code null for the callers).
 */
import type { Socket } from "node:net";
import { constants } from "node:os";
import { spawnPtyKeepingTail } from "./pty-tail";
type PtyModule = typeof import("node-pty");

type IPty = import("node-pty").IPty;
export interface PtyExit {
  exitCode: number;
  signal?: number;
}
export interface PtySpawnOptions {
  cols: number;
  rows: number;
  name: string;
  cwd: string;
  env: Record<string, string>;
}
interface Disposable {
  dispose(): void;
}

/** The part of node-pty's IPty the terminal code uses, plus `started`. */
export interface PtyHandle {
  readonly pid: number;
  readonly started: Promise<number | undefined>;
  onData(listener: (data: string) => void): Disposable;
  onExit(listener: (exit: PtyExit) => void): Disposable;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  pause(): void;
  resume(): void;
}

function listeners<T>() {
  const set = new Set<(v: T) => void>();
  return {
    add(l: (v: T) => void): Disposable {
      set.add(l);
      return { dispose: () => set.delete(l) };
    },
    fire: (v: T) => [...set].forEach((l) => l(v)),
  };
}

export class RemotePty implements PtyHandle {
  #pid = 0;
  #sock: Socket | undefined;
  #direct: IPty | undefined;
  #exit: PtyExit | undefined;
  #ended = false;
  #done = false;
  #paused = false;
  #queued: string[] = [];
  #killQueued: string | undefined;
  #resolveStarted!: (pid: number | undefined) => void;
  readonly started = new Promise<number | undefined>((r) => (this.#resolveStarted = r));
  readonly #data = listeners<string>();
  readonly #exitL = listeners<PtyExit>();

  constructor(
    private readonly spec: { file: string; args: string[]; opts: PtySpawnOptions },
    private readonly sendResize: (cols: number, rows: number) => void,
  ) {}

  get pid(): number {
    return this.#pid;
  }

  /** The spawner connected to our socket. */
  attach(sock: Socket): void {
    this.#sock = sock;
    sock.setEncoding("utf8");
    sock.on("data", (d: string) => this.#data.fire(d));
    sock.on("error", () => {});
    // The spawner ends its side after the terminal exited (our side is half-open: end it too).
    const ended = () => {
      this.#ended = true;
      sock.end();
      this.#finish();
    };
    sock.once("end", ended);
    sock.once("close", ended);
    if (this.#paused) sock.pause();
  }

  /** The spawner started it. */
  spawned(pid: number): void {
    this.#pid = pid;
    for (const d of this.#queued) this.#sock?.write(d);
    this.#queued = [];
    this.#resolveStarted(pid);
    if (this.#killQueued) this.kill(this.#killQueued);
  }

  exited(exit: PtyExit): void {
    this.#exit ??= exit;
    this.#finish();
  }

  /** The spawner died while the terminal ran: end its group, report a hang-up. */
  orphaned(): void {
    if (this.#pid > 0) this.#signalGroup("SIGKILL");
    this.#exit ??= { exitCode: 0, signal: constants.signals.SIGHUP };
    this.#ended = true;
    this.#sock?.destroy();
    this.#finish();
  }

  /** The spawner never started it (gone, or its start failed there): start it here, on this handle. */
  startDirect(nodePty: PtyModule | null, why: Error): void {
    this.#sock?.destroy();
    this.#sock = undefined;
    let term: IPty;
    try {
      if (!nodePty) throw why;
      term = spawnPtyKeepingTail(nodePty, this.spec.file, this.spec.args, this.spec.opts);
    } catch (e) {
      this.#resolveStarted(undefined);
      this.#data.fire(`${(e as Error).message}\r\n`);
      this.#exit = { exitCode: 127 };
      this.#ended = true;
      this.#finish();
      return;
    }
    this.#direct = term;
    this.#pid = term.pid;
    term.onData((d) => this.#data.fire(d));
    term.onExit((e) => {
      this.#exit = e;
      this.#ended = true;
      this.#finish();
    });
    if (this.#paused) term.pause();
    for (const d of this.#queued) term.write(d);
    this.#queued = [];
    this.#resolveStarted(term.pid);
    if (this.#killQueued) this.kill(this.#killQueued);
  }

  onData(listener: (data: string) => void): Disposable {
    return this.#data.add(listener);
  }

  onExit(listener: (exit: PtyExit) => void): Disposable {
    return this.#exitL.add(listener);
  }

  write(data: string): void {
    if (this.#direct) this.#direct.write(data);
    else if (this.#pid > 0 && this.#sock) this.#sock.write(data);
    else this.#queued.push(data);
  }

  resize(cols: number, rows: number): void {
    if (this.#direct) this.#direct.resize(cols, rows);
    else this.sendResize(cols, rows);
  }

  /** Like node-pty's: signals the process itself (SIGHUP by default); before the pid is known, once it is. */
  kill(signal = "SIGHUP"): void {
    if (this.#done) return;
    if (this.#pid <= 0) {
      this.#killQueued = signal;
      return;
    }
    try {
      process.kill(this.#pid, signal);
    } catch {
      // gone already
    }
  }

  pause(): void {
    this.#paused = true;
    this.#direct?.pause();
    this.#sock?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#direct?.resume();
    this.#sock?.resume();
  }

  #signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.#pid, signal);
    } catch {
      // gone already
    }
  }

  #finish(): void {
    if (this.#done || !this.#exit || !this.#ended) return;
    this.#done = true;
    this.#exitL.fire(this.#exit);
  }
}
