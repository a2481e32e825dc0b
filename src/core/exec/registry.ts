/**
 * The process registry: starts runs, tracks them in this process, and reads every run (also those started by
 * another process) from the state files under `execDir`. Finished runs expire after a TTL; running ones never do.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { AcpThreadsError } from "../errors";
import { Emitter, type Disposable } from "../lifecycle";
import { redactSecrets } from "../redact";
import { nullLogger, type Logger } from "../log";
import { ExecRun } from "./exec-run";
import { readSlice } from "./output-buffer";
import { isAlive, killRunGroup, signalRun } from "./proc";
import { RunLogReader } from "./run-log";
import {
  listRunIds,
  listRunIdsAsync,
  matchRunId,
  readRunState,
  readRunStateAsync,
  removeRun,
  removeRunAsync,
  runProcessAlive,
  toRunInfo,
  writeRunState,
} from "./run-state";
import { spawnProcess, spawnProcessAsync, type SpawnedProcess } from "./spawn-process";
import { background } from "../util/unexpected";
import {
  DEFAULT_HEAD_BYTES,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_RUN_TTL_MS,
  DEFAULT_TAIL_BYTES,
  type ExecRecorder,
  type ExecStartOptions,
  type OutputSlice,
  type PollResult,
  type RunInfo,
  type RunState,
} from "./types";

export interface ExecRegistryOptions {
  /** `homeLayout(resolveHome()).execDir`. */
  execDir: string;
  /** How long finished runs are kept (state + logs), or a function asked at each sweep. Default 60 min. */
  ttlMs?: number | (() => number);
  headBytes?: number;
  tailBytes?: number;
  killGraceMs?: number;
  /** Records each run as a thread (see exec-thread.ts). */
  recorder?: ExecRecorder;
  logger?: Logger;
  /** Sweep expired runs on this interval (ms); 0 disables the timer (the CLI sweeps on each command). */
  sweepIntervalMs?: number;
}

/** What `log()` returns: a byte range of the output (`head`/`tail` pick the first/last N bytes). */
export interface LogRequest {
  offset?: number;
  length?: number;
  head?: number;
  tail?: number;
}

export class ExecRegistry implements Disposable {
  readonly execDir: string;
  readonly #ttl: () => number;
  readonly #opts: Required<Omit<ExecRegistryOptions, "recorder" | "sweepIntervalMs" | "ttlMs">> & {
    recorder?: ExecRecorder;
  };
  readonly #runs = new Map<string, ExecRun>();
  /** Ids of `startAsync` calls waiting for their pid. */
  readonly #starting = new Set<string>();
  /** `shutdown(true)` ran: a start that was waiting for its pid is killed as soon as it has one. */
  #killOnStart = false;
  readonly #onDidStart = new Emitter<ExecRun>();
  readonly #onDidExit = new Emitter<RunInfo>();
  readonly #sweepTimer: NodeJS.Timeout | undefined;
  /** A run started in this process. */
  readonly onDidStart = this.#onDidStart.event;
  /** A run of this process ended. */
  readonly onDidExit = this.#onDidExit.event;

  constructor(options: ExecRegistryOptions) {
    this.execDir = options.execDir;
    const ttl = options.ttlMs ?? DEFAULT_RUN_TTL_MS;
    this.#ttl = typeof ttl === "function" ? ttl : () => ttl;
    this.#opts = {
      execDir: options.execDir,
      headBytes: options.headBytes ?? DEFAULT_HEAD_BYTES,
      tailBytes: options.tailBytes ?? DEFAULT_TAIL_BYTES,
      killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      logger: options.logger ?? nullLogger,
      recorder: options.recorder,
    };
    const interval = options.sweepIntervalMs ?? 60_000;
    // with no synchronous file call: the extension host's thread never waits on the disk for it
    if (interval > 0)
      this.#sweepTimer = setInterval(() => background(this.sweepAsync(), "sweeping old exec runs"), interval).unref();
  }

  /** Await before `start` so the edit ledger knows the folder as it was before the run (a no-op without one). */
  async prepare(cwd: string): Promise<void> {
    await this.#opts.recorder?.prepare?.(cwd);
  }

  /** How long finished runs are kept now (ms). */
  get ttlMs(): number {
    return this.#ttl();
  }

  /** Starts a run from this thread (the CLI). Throws `AcpThreadsError` (agent_not_found, usage) when it cannot start. */
  start(options: ExecStartOptions): ExecRun {
    const { id, env } = this.#admit(options);
    return this.#register(id, options, env, spawnProcess({ ...options, env, pty: options.pty ?? false }));
  }

  /**
   * `start` whose fork happens off this thread (#24): through the launcher seams, which the extension host points
   * at its spawner. Resolves once the run's pid is known; rejects like `start` throws.
   */
  async startAsync(options: ExecStartOptions): Promise<ExecRun> {
    const { id, env } = this.#admit(options);
    this.#starting.add(id);
    let run: ExecRun;
    try {
      run = this.#register(id, options, env, await spawnProcessAsync({ ...options, env, pty: options.pty ?? false }));
    } finally {
      this.#starting.delete(id);
    }
    if (this.#killOnStart) {
      await run.kill();
      throw new AcpThreadsError("usage", `exec run ${id} was stopped: the registry is shutting down`);
    }
    return run;
  }

  /** Checks a start's id (given or new) and makes the exec dir; the env the run gets. */
  #admit(options: ExecStartOptions): { id: string; env: NodeJS.ProcessEnv } {
    mkdirSync(this.execDir, { recursive: true, mode: 0o700 });
    this.sweep();
    const id = options.id ?? newRunId();
    // Ids become file names: never let one reach outside execDir.
    if (!RUN_ID_RE.test(id)) throw new AcpThreadsError("usage", `invalid exec run id '${id}'`);
    if (this.#runs.has(id) || this.#starting.has(id) || readRunState(this.execDir, id))
      throw new AcpThreadsError("usage", `exec run ${id} exists`);
    return { id, env: options.env ?? process.env };
  }

  #register(id: string, options: ExecStartOptions, env: NodeJS.ProcessEnv, proc: SpawnedProcess): ExecRun {
    const now = new Date().toISOString();
    const state: RunState = {
      version: 1,
      id,
      command: options.command,
      // Persisted and shown everywhere: a key passed on the command line must not land on disk.
      args: options.args.map(redactSecrets),
      commandLine: redactSecrets(commandLine(options.command, options.args)),
      presetId: options.presetId,
      cwd: options.cwd,
      ...(options.worktree ? { worktree: options.worktree } : {}),
      ...(options.sandbox ? { sandboxed: true } : {}),
      pty: proc.pty,
      cols: proc.pty ? options.cols : undefined,
      rows: proc.pty ? options.rows : undefined,
      pid: proc.pid,
      pgid: proc.pid,
      ownerPid: process.pid,
      startedAt: now,
      updatedAt: now,
      status: "running",
      exitCode: null,
      signal: null,
      bytes: 0,
      timeoutMs: options.timeoutMs,
      transcriptKind: options.transcript,
    };
    let run: ExecRun;
    try {
      run = new ExecRun(state, proc, { ...this.#opts, env });
    } catch (err) {
      // Could not record it (exec dir unwritable): a run nobody can see or kill must not go on.
      signalRun(proc.pid, "SIGKILL");
      throw err;
    }
    this.#runs.set(id, run);
    run.onExit((info) => this.#onDidExit.fire(info));
    this.#onDidStart.fire(run);
    this.#opts.logger.debug(`exec ${id}: started ${state.commandLine} (pid ${proc.pid})`);
    return run;
  }

  /** The live run object when this process owns it (for write / resize / events). */
  get(id: string): ExecRun | undefined {
    return this.#runs.get(id);
  }

  /** Every known run, newest first, from this process and others. */
  list(): RunInfo[] {
    this.sweep();
    const out: RunInfo[] = [];
    for (const id of listRunIds(this.execDir)) {
      const info = this.info(id);
      if (info) out.push(info);
    }
    return out.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** One run by id or unique id prefix; throws not_found / ambiguous. */
  resolve(idOrPrefix: string): RunInfo {
    const id = matchRunId([...new Set([...this.#runs.keys(), ...listRunIds(this.execDir)])], idOrPrefix);
    const info = this.info(id);
    if (!info) throw new AcpThreadsError("not_found", `no exec run '${idOrPrefix}'`);
    return info;
  }

  info(id: string): RunInfo | undefined {
    const live = this.#runs.get(id);
    if (live) return live.info;
    const state = readRunState(this.execDir, id);
    if (!state) return undefined;
    const info = toRunInfo(state, false);
    // The owner flushes its byte count only now and then; the log files are current.
    if (info.status === "running") info.bytes = Math.max(info.bytes, new RunLogReader(this.execDir, id).total);
    return info;
  }

  /** Status plus output since `cursor` (a total-bytes offset; dropped output shows up as `gap`). */
  poll(id: string, cursor = 0, maxBytes = 256 * 1024): PollResult {
    const run = this.resolve(id);
    const live = this.#runs.get(run.id);
    const slice = live ? live.read(cursor, maxBytes) : this.#readFile(run, cursor, maxBytes);
    return { ...slice, run: live ? live.info : run };
  }

  /** A range of the kept output: `{head: N}`, `{tail: N}` or `{offset, length}`. */
  log(id: string, request: LogRequest = {}): OutputSlice {
    const run = this.resolve(id);
    const live = this.#runs.get(run.id);
    const read = (cursor: number, max: number) => (live ? live.read(cursor, max) : this.#readFile(run, cursor, max));
    const total = live ? live.read(0, 0).total : new RunLogReader(this.execDir, run.id).total;
    if (request.head !== undefined) return read(0, request.head);
    if (request.tail !== undefined) return read(Math.max(0, total - request.tail), request.tail);
    return read(request.offset ?? 0, request.length ?? total);
  }

  write(id: string, data: string): void {
    this.#live(id).write(data);
  }
  submit(id: string, line: string): void {
    this.#live(id).submit(line);
  }
  sendKeys(id: string, keys: readonly string[]): void {
    this.#live(id).sendKeys(keys);
  }
  resize(id: string, cols: number, rows: number): void {
    this.#live(id).resize(cols, rows);
  }

  /**
   * Kills the run's process group (SIGTERM, SIGKILL after grace), also when another process owns it. When the
   * owner is gone, the state is closed out here so the run is not reported lost.
   */
  async kill(id: string, graceMs = this.#opts.killGraceMs): Promise<RunInfo> {
    const run = this.resolve(id);
    const live = this.#runs.get(run.id);
    if (live) return live.kill(graceMs);
    if (run.status !== "running" || !run.pgid || !runProcessAlive(run)) return run;
    await killRunGroup(run.pgid, graceMs);
    // Give the owner a moment to record the exit itself (it knows the real status).
    for (let i = 0; i < 20 && isAlive(run.ownerPid) && readRunState(this.execDir, run.id)?.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const state = readRunState(this.execDir, run.id);
    if (state && state.status === "running") {
      const now = new Date().toISOString();
      writeRunState(this.execDir, { ...state, status: "killed", signal: "SIGTERM", endedAt: now, updatedAt: now });
    }
    return this.info(run.id) ?? run;
  }

  /** Removes finished runs older than the TTL (state and logs). Running runs are never removed. */
  sweep(now = Date.now()): string[] {
    const removed: string[] = [];
    const ttlMs = this.ttlMs;
    for (const id of listRunIds(this.execDir)) {
      const live = this.#runs.get(id);
      if (live?.running) continue;
      if (!this.#expired(live?.state ?? readRunState(this.execDir, id), now, ttlMs)) continue;
      removeRun(this.execDir, id);
      this.#forget(id, live);
      removed.push(id);
    }
    return removed;
  }

  /** `sweep` without a synchronous file call (its timer's; the extension host's). */
  async sweepAsync(now = Date.now()): Promise<string[]> {
    const removed: string[] = [];
    const ttlMs = this.ttlMs;
    for (const id of await listRunIdsAsync(this.execDir)) {
      if (this.#runs.get(id)?.running) continue;
      const state = this.#runs.get(id)?.state ?? (await readRunStateAsync(this.execDir, id));
      if (!this.#expired(state, now, ttlMs) || this.#runs.get(id)?.running) continue;
      await removeRunAsync(this.execDir, id);
      this.#forget(id, this.#runs.get(id));
      removed.push(id);
    }
    return removed;
  }

  /** A finished run that ended longer than `ttlMs` before `now`. */
  #expired(state: RunState | undefined, now: number, ttlMs: number): boolean {
    if (!state || toRunInfo(state, false).status === "running") return false;
    return now - Date.parse(state.endedAt ?? state.updatedAt) >= ttlMs;
  }

  #forget(id: string, live: ExecRun | undefined): void {
    live?.dispose();
    this.#runs.delete(id);
  }

  /** Stops the sweep timer; with `killRunning`, kills the runs this process owns (extension deactivation). */
  async shutdown(killRunning: boolean): Promise<void> {
    clearInterval(this.#sweepTimer);
    this.#killOnStart ||= killRunning;
    if (killRunning) await Promise.all([...this.#runs.values()].filter((r) => r.running).map((r) => r.kill()));
  }

  dispose(): void {
    clearInterval(this.#sweepTimer);
    this.#onDidStart.dispose();
    this.#onDidExit.dispose();
  }

  #live(id: string): ExecRun {
    const info = this.resolve(id);
    const run = this.#runs.get(info.id);
    if (!run)
      throw new AcpThreadsError(
        "usage",
        `exec run ${info.id} is owned by process ${info.ownerPid}; input works only there`,
      );
    return run;
  }

  #readFile(run: RunInfo, cursor: number, maxBytes: number): OutputSlice {
    return readSlice(new RunLogReader(this.execDir, run.id), cursor, maxBytes, run.status !== "running");
  }
}

const RUN_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Short, typeable ids: 10 hex chars. */
export function newRunId(): string {
  return randomBytes(5).toString("hex");
}

/** The command line as a shell would show it (arguments with spaces or quotes are quoted). */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}
