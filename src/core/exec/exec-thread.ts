/**
 * Records each exec run as a thread (mode "exec"): `thread_start` with the command and cwd, bounded
 * `exec_output` records (the first `headBytes` as they stream, coalesced; then, at exit, the last `tailBytes`
 * marked truncated), `exec_exit`, and a `meta_patch` with the final status and the CLI's own transcript path.
 *
 * It writes through `ThreadSink`, the slice of `ThreadStore` it needs (`new ThreadStore(home)` fits it), so
 * exec does not depend on how the store opens files or locks them.
 */
import type { MetadataPatch, RecordInput, ThreadStartRecord, ThreadStatus } from "../model/records";
import type { ExecRecorder, OutputEvent, OutputSlice, RunState } from "./types";

export interface ThreadSinkHandle {
  readonly threadId: string;
  append(input: RecordInput): unknown;
  patch(patch: MetadataPatch): unknown;
  sync(): void;
  close(): void;
}

export interface ThreadSink {
  create(input: Omit<ThreadStartRecord, "v" | "ts" | "kind" | "threadId">): ThreadSinkHandle;
}

export interface ExecThreadOptions {
  /** Output recorded as it streams (default 64 KiB). */
  headBytes?: number;
  /** Output recorded at exit from the end of the stream when the middle was skipped (default 64 KiB). */
  tailBytes?: number;
  /** Repository facts for `thread_start` (the store's `gitInfo`); null when absent. */
  describeRepo?: (cwd: string) => { repoRoot: string | null; gitHead: string | null };
  /** Coalesce streamed output into one record per this many bytes (default 16 KiB) or per exit. */
  flushBytes?: number;
  onError?: (err: unknown) => void;
}

const TITLE_MAX = 80;

interface Pending {
  stream: OutputEvent["stream"];
  text: string;
  bytes: number;
}

export class ExecThreadRecorder implements ExecRecorder {
  readonly #sink: ThreadSink;
  readonly #opts: Required<Omit<ExecThreadOptions, "describeRepo" | "onError">> & ExecThreadOptions;
  readonly #handles = new Map<
    string,
    { handle: ThreadSinkHandle; recorded: number; skipped: boolean; pending?: Pending }
  >();

  constructor(sink: ThreadSink, options: ExecThreadOptions = {}) {
    this.#sink = sink;
    this.#opts = { headBytes: 64 * 1024, tailBytes: 64 * 1024, flushBytes: 16 * 1024, ...options };
  }

  started(run: RunState): string | undefined {
    return this.#guard(() => {
      const repo = this.#opts.describeRepo?.(run.cwd) ?? { repoRoot: null, gitHead: null };
      const handle = this.#sink.create({
        agent: { id: run.presetId ?? "exec", name: run.presetId ?? run.command, command: run.command, args: run.args },
        mode: "exec",
        startedFrom: "exec",
        cwd: run.cwd,
        ...repo,
        title: run.commandLine.length > TITLE_MAX ? `${run.commandLine.slice(0, TITLE_MAX - 1)}…` : run.commandLine,
      });
      if (run.worktree) handle.patch({ worktree: run.worktree });
      this.#handles.set(run.id, { handle, recorded: 0, skipped: false });
      return handle.threadId;
    });
  }

  output(event: OutputEvent): void {
    const entry = this.#handles.get(event.runId);
    if (!entry || !event.text) return;
    if (entry.recorded + (entry.pending?.bytes ?? 0) >= this.#opts.headBytes) {
      entry.skipped = true;
      return;
    }
    if (entry.pending && entry.pending.stream !== event.stream) this.#flush(entry);
    entry.pending ??= { stream: event.stream, text: "", bytes: 0 };
    entry.pending.text += event.text;
    entry.pending.bytes += event.bytes;
    if (entry.pending.bytes >= this.#opts.flushBytes) this.#flush(entry);
  }

  exited(run: RunState, read: (cursor: number, maxBytes: number) => OutputSlice): void {
    const entry = this.#handles.get(run.id);
    if (!entry) return;
    this.#handles.delete(run.id);
    this.#guard(() => {
      this.#flush(entry);
      if (entry.skipped || entry.recorded < run.bytes) {
        const from = Math.max(entry.recorded, run.bytes - this.#opts.tailBytes);
        const tail = read(from, this.#opts.tailBytes);
        if (tail.text) {
          entry.handle.append({
            kind: "exec_output",
            stream: run.pty ? "pty" : "stdout",
            text: tail.text,
            bytes: run.bytes,
            truncated: true,
          });
        }
      }
      const durationMs = Date.parse(run.endedAt ?? run.updatedAt) - Date.parse(run.startedAt);
      entry.handle.append({ kind: "exec_exit", exitCode: run.exitCode, signal: run.signal, durationMs });
      const patch: MetadataPatch = { status: threadStatus(run) };
      if (run.transcriptPath) patch.transcriptPath = run.transcriptPath;
      if (run.status !== "exited")
        patch.reason = run.status === "timeout" ? "timed out" : `killed by ${run.signal ?? "signal"}`;
      entry.handle.patch(patch);
      entry.handle.close();
    });
  }

  patched(run: RunState, patch: Partial<Pick<RunState, "transcriptPath">>): void {
    // After exit the thread is closed; a late transcript path goes through the store by the host.
    const entry = this.#handles.get(run.id);
    if (entry && patch.transcriptPath) this.#guard(() => entry.handle.patch({ transcriptPath: patch.transcriptPath }));
  }

  #flush(entry: { handle: ThreadSinkHandle; recorded: number; pending?: Pending }): void {
    const p = entry.pending;
    if (!p || !p.text) return;
    entry.pending = undefined;
    entry.handle.append({ kind: "exec_output", stream: p.stream, text: p.text, bytes: p.bytes });
    entry.recorded += p.bytes;
  }

  #guard<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      // Recording is a side effect: a full disk must not kill the run it describes.
      this.#opts.onError?.(err);
      return undefined;
    }
  }
}

function threadStatus(run: RunState): ThreadStatus {
  if (run.status === "exited") return run.exitCode === 0 ? "done" : "failed";
  return run.status === "failed" ? "failed" : "interrupted";
}
