/**
 * One live run owned by this process: its process, bounded output (memory + disk), state file, timeout and the
 * events a live mirror listens to. Created by `ExecRegistry.start`; other processes only see its files.
 */
import { StringDecoder } from "node:string_decoder";
import { AcpThreadsError, errorMessage } from "../errors";
import { canSignal } from "../platform/process-tree";
import { Emitter, type Disposable } from "../lifecycle";
import type { Logger } from "../log";
import { HeadTailBuffer, readSlice } from "./output-buffer";
import { killRunGroup, processStartTicks, signalRun } from "./proc";
import { RunLogWriter } from "./run-log";
import { toRunInfo, writeRunState } from "./run-state";
import { findTranscript } from "./transcript-finder";
import { encodeKeys, keyBytes, pipeKeyAction } from "./send-keys";
import type { SpawnedProcess } from "./spawn-process";
import {
  STATE_FLUSH_INTERVAL_MS,
  type ExecRecorder,
  type OutputEvent,
  type OutputSlice,
  type RunInfo,
  type RunState,
} from "./types";
import { background } from "../util/unexpected";
import { timerMs } from "../util/guards";

export interface ExecRunDeps {
  execDir: string;
  headBytes: number;
  tailBytes: number;
  killGraceMs: number;
  recorder?: ExecRecorder;
  logger: Logger;
  /** The run's environment, to find its transcript (HOME, CODEX_HOME...). Kept in memory only. */
  env: NodeJS.ProcessEnv;
}

export class ExecRun implements Disposable {
  readonly id: string;
  readonly #deps: ExecRunDeps;
  readonly #proc: SpawnedProcess;
  readonly #buffer: HeadTailBuffer;
  readonly #log: RunLogWriter;
  readonly #decoders = new Map<string, StringDecoder>();
  readonly #onOutput = new Emitter<OutputEvent>();
  readonly #onExit = new Emitter<RunInfo>();
  #state: RunState;
  #flushTimer: NodeJS.Timeout | undefined;
  #timeoutTimer: NodeJS.Timeout | undefined;
  #timedOut = false;
  #logFailed = false;
  #resolveExited!: (info: RunInfo) => void;
  /** Resolves with the final state once the process has exited and its output is recorded. */
  readonly exited: Promise<RunInfo>;
  /** Every output chunk as it arrives (decoded per stream, never splitting a character). */
  readonly onOutput = this.#onOutput.event;
  /** Fires once with the final state. */
  readonly onExit = this.#onExit.event;

  constructor(state: RunState, proc: SpawnedProcess, deps: ExecRunDeps) {
    this.id = state.id;
    this.#deps = deps;
    this.#proc = proc;
    this.#buffer = new HeadTailBuffer(deps.headBytes, deps.tailBytes);
    this.#log = new RunLogWriter(deps.execDir, state.id, deps.headBytes, deps.tailBytes);
    this.#state = { ...state, pid: proc.pid, pgid: proc.pid, pidStartTicks: processStartTicks(proc.pid) };
    this.exited = new Promise((resolve) => (this.#resolveExited = resolve));
    const threadId = deps.recorder?.started(this.#state);
    if (threadId) this.#state.threadId = threadId;
    writeRunState(deps.execDir, this.#state); // at start a failure is the caller's error: nothing runs unseen
    proc.onData((chunk, stream) => this.#append(chunk, stream));
    proc.onExit((exit) => this.#finish(exit.exitCode, exit.signal));
    if (state.timeoutMs && state.timeoutMs > 0) {
      this.#timeoutTimer = setTimeout(() => {
        this.#timedOut = true;
        background(this.kill(), "stopping a timed-out run");
      }, timerMs(state.timeoutMs));
    }
  }

  get info(): RunInfo {
    return toRunInfo(this.#state, this.#state.status === "running");
  }
  get state(): RunState {
    return this.#state;
  }
  /** Whether `write` can reach the program (false for pipes started with closed stdin). */
  get acceptsInput(): boolean {
    return this.#proc.acceptsInput;
  }
  get running(): boolean {
    return this.#state.status === "running";
  }

  /** Output from byte `cursor` (see `OutputSlice`); `maxBytes` bounds one answer. */
  read(cursor: number, maxBytes = 256 * 1024): OutputSlice {
    return readSlice(this.#buffer, cursor, maxBytes, !this.running);
  }

  /** Raw input to the process (stdin, or the terminal as if typed). */
  write(data: string): void {
    this.#assertRunning();
    this.#proc.write(data);
  }

  /** Types a line and presses Enter (CR on a PTY, LF on pipes). */
  submit(line: string): void {
    this.write(line + (this.#proc.pty ? "\r" : "\n"));
  }

  /** Named keys (`C-c`, `Enter`, `Up`...). On pipes, C-c/C-\/C-z signal the group and C-d closes stdin. */
  sendKeys(keys: readonly string[]): void {
    this.#assertRunning();
    if (this.#proc.pty) return this.#proc.write(encodeKeys(keys));
    for (const key of keys) {
      const action = pipeKeyAction(key);
      if (!action) this.#proc.write(keyBytes(key) ?? key);
      else if ("signal" in action) {
        if (!canSignal(action.signal))
          throw new AcpThreadsError("usage", `${key} (${action.signal}) has no equivalent on ${process.platform}`);
        signalRun(this.#state.pgid!, action.signal);
      } else this.#proc.endInput();
    }
  }

  /** Closes stdin (pipes); sends C-d on a PTY. */
  endInput(): void {
    if (!this.running) return;
    if (this.#proc.pty) this.#proc.write("\x04");
    else this.#proc.endInput();
  }

  resize(cols: number, rows: number): void {
    this.#assertRunning();
    this.#proc.resize(cols, rows);
    this.#state = { ...this.#state, cols, rows };
  }

  /** SIGTERM to the process group, SIGKILL after the grace period. Resolves with the final state. */
  async kill(graceMs = this.#deps.killGraceMs): Promise<RunInfo> {
    if (this.running && this.#state.pgid) await killRunGroup(this.#state.pgid, graceMs);
    return this.exited;
  }

  /** Records where the CLI left its own transcript. */
  patch(patch: Partial<Pick<RunState, "transcriptPath" | "threadId">>): void {
    this.#state = { ...this.#state, ...patch, updatedAt: new Date().toISOString() };
    this.#persist();
    if (patch.transcriptPath) this.#deps.recorder?.patched(this.#state, { transcriptPath: patch.transcriptPath });
  }

  dispose(): void {
    this.#onOutput.dispose();
    this.#onExit.dispose();
  }

  #assertRunning(): void {
    if (!this.running) throw new Error(`exec run ${this.id} has ended`);
  }

  #append(chunk: Buffer, stream: OutputEvent["stream"]): void {
    const offset = this.#buffer.total;
    this.#buffer.append(chunk);
    // One failure (disk full) stops the file log; the memory buffer and live listeners carry on.
    if (!this.#logFailed) this.#logFailed = !this.#safely("writing the output log", () => this.#log.append(chunk));
    let decoder = this.#decoders.get(stream);
    if (!decoder) this.#decoders.set(stream, (decoder = new StringDecoder("utf8")));
    const event: OutputEvent = { runId: this.id, text: decoder.write(chunk), offset, bytes: chunk.length, stream };
    this.#deps.recorder?.output(event);
    this.#safely("an output listener", () => this.#onOutput.fire(event));
    this.#flushTimer ??= setTimeout(() => {
      this.#flushTimer = undefined;
      if (!this.running) return;
      this.#state = { ...this.#state, bytes: this.#buffer.total, updatedAt: new Date().toISOString() };
      this.#persist();
    }, STATE_FLUSH_INTERVAL_MS).unref();
  }

  #findTranscript(): string | undefined {
    const { transcriptKind: kind, cwd, startedAt } = this.#state;
    return kind && findTranscript({ kind, cwd, startedAt: Date.parse(startedAt), env: this.#deps.env });
  }

  #finish(exitCode: number | null, signal: string | null): void {
    if (!this.running) return;
    for (const [stream, decoder] of this.#decoders) {
      const rest = decoder.end();
      const event = {
        runId: this.id,
        text: rest,
        offset: this.#buffer.total,
        bytes: 0,
        stream: stream as OutputEvent["stream"],
      };
      if (rest) this.#safely("an output listener", () => this.#onOutput.fire(event));
    }
    clearTimeout(this.#flushTimer);
    clearTimeout(this.#timeoutTimer);
    this.#log.close();
    const status = this.#timedOut ? "timeout" : signal ? "killed" : "exited";
    const now = new Date().toISOString();
    const transcriptPath = this.#findTranscript();
    this.#state = { ...this.#state, status, exitCode, signal, bytes: this.#buffer.total, endedAt: now, updatedAt: now };
    if (transcriptPath) this.#state.transcriptPath = transcriptPath;
    this.#persist();
    this.#deps.recorder?.exited(this.#state, (cursor, max) => readSlice(this.#buffer, cursor, max, true));
    const info = this.info;
    this.#safely("an exit listener", () => this.#onExit.fire(info));
    this.#resolveExited(info);
  }

  /** Rewrites the state file; a failure (disk full) is logged, never thrown into the process's event handlers. */
  #persist(): void {
    this.#safely("writing the state file", () => writeRunState(this.#deps.execDir, this.#state));
  }

  /** Runs `fn`; on failure logs it and returns false. */
  #safely(what: string, fn: () => void): boolean {
    try {
      fn();
      return true;
    } catch (err) {
      this.#deps.logger.warn(`exec ${this.id}: ${what} failed: ${errorMessage(err)}`);
      return false;
    }
  }
}
