/**
 * One view of a running thread for the host tests, whichever engine runs it (#35 item 7, step 3): a window session
 * (`hub.live`, the default) is returned as it is; a thread a thread host holds (the window's own host under
 * `ACP_THREADS_WINDOW_ENGINE=hosted`, or the socket host) is read through the view the panel follows
 * (`hub.hosted.open`, hosted-thread-view.ts); a thread whose run there failed to start is read as the failed view
 * the panel shows (`failed`, its reason as `statusDetail`). It changes how a test reads a thread, never what it
 * expects: what a window session alone has (its worktree, sandbox, agent session …) is read through `windowOnly`,
 * which says so.
 */
import * as vscode from "vscode";
import type { RuntimeEvent } from "../../../src/core/model/events";
import type { HostedThreadView } from "../../../src/vscode/host/hosted-thread-view";
import { lastTurnError } from "../../../src/vscode/host/own-rows";
import type { LiveSession } from "../../../src/vscode/live-session";
import type { LiveStatus } from "../../../src/webview/thread/protocol";
import { type api, waitFor } from "./helpers";

type Hub = Awaited<ReturnType<typeof api>>["hub"];

/** What the tests read of a running thread: a `LiveSession` has all of it. */
export interface TestSession {
  readonly threadId: string;
  readonly status: LiveStatus;
  readonly statusDetail: string | undefined;
  /** The thread's events as the panel shows them (a window session's live tail; a hosted thread's records). */
  readonly events: RuntimeEvent[];
  readonly busy: boolean;
  readonly isOpen: boolean;
  readonly agent: { id: string; displayName: string };
  readonly title: string;
  /** The text of the last prompt sent (undefined before the first). */
  readonly lastPrompt: string | undefined;
  readonly cwd: string;
  /** Truthy once the thread is started and stored. */
  readonly thread: unknown;
  readonly onTurnDone: vscode.Event<void>;
  readonly onEvents: vscode.Event<RuntimeEvent[]>;
  /** A turn with `text`; resolves once it ended. */
  prompt(text: string): Promise<void>;
  cancel(): Promise<void>;
  /** Ends the thread's run (the window session closes; the host's run stops). */
  close(): Promise<void>;
  transcript(): Promise<RuntimeEvent[]>;
}

/** A thread a thread host runs, read through the panel's view of it. */
class HostedSession implements TestSession {
  readonly #turnDone = new vscode.EventEmitter<void>();
  readonly onTurnDone = this.#turnDone.event;
  #turns = 0;
  #closing: Promise<void> | undefined;

  constructor(
    private readonly hub: Hub,
    private readonly view: HostedThreadView,
    private readonly release: vscode.Disposable,
  ) {
    this.#turns = this.#doneCount();
    view.onEvents((batch) => {
      for (const e of batch) {
        if (e.type !== "done") continue;
        this.#turns++;
        this.#turnDone.fire();
      }
    });
  }

  get threadId(): string {
    return this.view.threadId;
  }

  #doneCount(): number {
    return this.view.events.filter((e) => e.type === "done").length;
  }

  /** The host's row of the thread (its `starting` / `idle` before the view saw a turn). */
  #row() {
    return this.hub.hosted.linkOf(this.threadId).session(this.threadId);
  }

  get status(): LiveStatus {
    if (this.view.ended) return this.view.failure ? "failed" : "closed";
    const s = this.view.status;
    if (s !== "idle") return s;
    // between turns as far as the records go: before its first turn ended, the host's row says whether it is idle
    if (!this.#turns && this.#row()?.state !== "idle") return "starting";
    return lastTurnError(this.view.events) ? "failed" : "idle";
  }

  get statusDetail(): string | undefined {
    return this.view.failure ?? (this.view.busy ? undefined : lastTurnError(this.view.events));
  }

  get events(): RuntimeEvent[] {
    return [...this.view.events];
  }

  get busy(): boolean {
    return this.view.busy || this.status === "starting";
  }

  get isOpen(): boolean {
    return !this.view.ended;
  }

  #meta() {
    return this.hub.threads.read(this.threadId).metadata;
  }

  get agent(): { id: string; displayName: string } {
    const a = this.#meta().agent;
    return { id: a.id, displayName: a.name };
  }

  get title(): string {
    return this.#meta().title ?? "";
  }

  get lastPrompt(): string | undefined {
    const last = this.view.events.findLast((e) => e.type === "user_text" && !e.steered);
    return last?.type === "user_text" ? last.text : undefined;
  }

  get cwd(): string {
    return this.#meta().cwd;
  }

  get thread(): unknown {
    return this.view.cursor > 0 ? this.view : undefined;
  }

  get onEvents(): vscode.Event<RuntimeEvent[]> {
    return this.view.onEvents;
  }

  async prompt(text: string): Promise<void> {
    const before = this.#turns;
    const ended = new Promise<void>((resolve) => {
      const done = () => (this.#turns > before || this.view.ended) && (subs.forEach((s) => s.dispose()), resolve());
      const subs = [this.onTurnDone(done), this.view.onStatus(done)];
    });
    await this.view.prompt(text);
    await ended;
  }

  cancel(): Promise<void> {
    return this.view.cancel();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.view.ended)
        await this.view.stop().catch((err: unknown) => void (this.view.ended || Promise.reject(err)));
      hostedSessions.delete(this.threadId);
      this.release.dispose();
    })();
    return this.#closing;
  }

  async transcript(): Promise<RuntimeEvent[]> {
    return this.events;
  }
}

const hostedSessions = new Map<string, HostedSession>();

/** The running thread `threadId` (waited for: its window session, or its row in a thread host). */
export async function sessionOf(hub: Hub, threadId: string, what = "the thread's session"): Promise<TestSession> {
  return await waitFor(what, () => {
    // an open window session first; a closed one (still listed) only when no host holds the thread
    const live = hub.live.get(threadId);
    if (live?.isOpen) return live;
    const known = hostedSessions.get(threadId);
    if (known?.isOpen) return known;
    // held by a host, or its run there failed to start (failed-starts.ts: the view is its end, with why)
    const held = hub.hosted.linkOf(threadId).session(threadId) || hub.hosted.failed.get(threadId);
    const opened = held ? hub.hosted.open(threadId) : undefined;
    if (!opened) return live;
    const s = new HostedSession(hub, opened.view, opened.release);
    hostedSessions.set(threadId, s);
    return s;
  });
}

/** A session's window-session-only part (LiveSession): under the hosted engine, the test fails saying what it read. */
export function windowOnly(s: TestSession, what: string): LiveSession {
  // (each test file bundles its own copy of the classes: the hosted wrapper is this file's, the window session is not)
  if (!(s instanceof HostedSession)) return s as LiveSession;
  throw new Error(`reads the window session's ${what}: the thread runs in a thread host`);
}
