/**
 * The set of live threads in this window (agent sessions and exec runs), with one change event for views. Closed
 * sessions stay listed (a finished run shows under Live) up to `MAX_CLOSED`; older ones leave memory (their
 * threads are on disk and list as past ones).
 */
import * as vscode from "vscode";
import type { LiveSession } from "./live-session";

export interface LiveExec {
  runId: string;
  title: string;
  commandLine: string;
  cwd: string;
  startedAt: number;
  status: string;
  terminal: vscode.Terminal;
  /** The exec thread recording this run (so the view lists it once, under Live). */
  threadId?: string;
  endedAt?: number;
  /** The process's exit code once it exited. */
  exitCode?: number | null;
}

export const MAX_CLOSED = 8;

export class LiveSessions implements vscode.Disposable {
  readonly #sessions = new Map<string, LiveSession>();
  readonly #execs = new Map<string, LiveExec>();
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.#changed.event;
  readonly #left = new vscode.EventEmitter<string>();
  /** A closed session left memory (past the cap): its thread id. An open panel of it shows the stored thread. */
  readonly onDidLeave = this.#left.event;
  readonly #subs = new Map<LiveSession, vscode.Disposable>();

  constructor(private readonly maxClosed = MAX_CLOSED) {}

  /** Adds a session; one that resumes a thread replaces the (closed) earlier session of that thread. */
  add(s: LiveSession): void {
    const earlier = this.#sessions.get(s.threadId);
    if (earlier && earlier !== s) this.#forget(earlier);
    this.#sessions.set(s.threadId, s);
    const status = s.onStatus(() => {
      if (!s.isOpen) this.#pruneClosed();
      this.#changed.fire();
    });
    // the tree's tooltip shows the agent's login state: a new one redraws it
    const login = s.onAuthStatus(() => this.#changed.fire());
    this.#subs.set(s, vscode.Disposable.from(status, login));
    this.#changed.fire();
  }

  /** Closed sessions past the newest `maxClosed` leave memory. */
  #pruneClosed(): void {
    let over = [...this.#sessions.values()].filter((s) => !s.isOpen).length - this.maxClosed;
    for (const s of this.#sessions.values()) {
      if (over <= 0) return;
      if (s.isOpen) continue;
      this.#sessions.delete(s.threadId);
      this.#forget(s);
      this.#left.fire(s.threadId);
      over--;
    }
  }

  #forget(s: LiveSession): void {
    this.#subs.get(s)?.dispose();
    this.#subs.delete(s);
    s.dispose();
  }

  /** Sessions held in memory, open or closed (the bounded-memory tests read it). */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Stops a session for good: a running turn is cancelled (given a moment to wind down), the agent stopped, the
   * thread closed and its lock released, and the session leaves the list (the thread shows as a past one).
   */
  async stop(threadId: string): Promise<boolean> {
    const s = this.#sessions.get(threadId);
    if (!s) return false;
    this.#sessions.delete(threadId);
    await s.close();
    this.#forget(s);
    this.#changed.fire();
    return true;
  }

  get(threadId: string): LiveSession | undefined {
    return this.#sessions.get(threadId);
  }

  bySessionId(sessionId: string): LiveSession | undefined {
    return [...this.#sessions.values()].find((s) => s.sessionId === sessionId);
  }

  all(): LiveSession[] {
    return [...this.#sessions.values()];
  }

  addExec(e: LiveExec): void {
    this.#execs.set(e.runId, e);
    this.#changed.fire();
  }

  /** A run that exited with a non-zero code is "failed" (exit 127 is a command not found, not a success). */
  updateExec(runId: string, status: string, exitCode?: number | null): void {
    const e = this.#execs.get(runId);
    if (!e) return;
    e.status = status === "exited" && exitCode !== undefined && exitCode !== null && exitCode !== 0 ? "failed" : status;
    if (exitCode !== undefined) e.exitCode = exitCode;
    if (status !== "running") e.endedAt ??= Date.now();
    this.#changed.fire();
  }

  execs(): LiveExec[] {
    return [...this.#execs.values()];
  }

  exec(runId: string): LiveExec | undefined {
    return this.#execs.get(runId);
  }

  /** Forgets exec runs that ended more than `ttlMs` ago (acpThreads.exec.ttlMinutes); their threads stay listed by day. */
  pruneExecs(ttlMs: number): void {
    const cutoff = Date.now() - ttlMs;
    let changed = false;
    for (const [id, e] of this.#execs) {
      if (e.endedAt !== undefined && e.endedAt < cutoff) changed = this.#execs.delete(id);
    }
    if (changed) this.#changed.fire();
  }

  dispose(): void {
    for (const s of this.#sessions.values()) this.#forget(s);
    this.#changed.dispose();
    this.#left.dispose();
  }
}
