/**
 * One view of a running thread for the host tests, whichever engine runs it (#35 item 7, step 3): a window session
 * (`hub.live`, the default) is returned as it is; a thread a thread host holds (the window's own host under
 * `ACP_THREADS_WINDOW_ENGINE=hosted`, or the socket host) is read through the view the panel follows
 * (`hub.hosted.open`, hosted-thread-view.ts); a thread whose run there failed to start is read as the failed view
 * the panel shows (`failed`, its reason as `statusDetail`). It changes how a test reads a thread, never what it
 * expects. A hosted thread's session state (modes, config options, login: the view's `sessionState`), its agent
 * session id (its records'), whether it is sandboxed (the host's row) are read as the panel reads them; a picker's
 * or the login's change goes to the host as the panel routes it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import type { AuthStatus } from "../../../src/core/acp/auth-status";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { routeHostedControls } from "../../../src/vscode/host/hosted-controls";
import type { HostedThreadView } from "../../../src/vscode/host/hosted-thread-view";
import { lastTurnError } from "../../../src/vscode/host/own-rows";
import type { LiveSession } from "../../../src/vscode/live-session";
import type { PickerSource } from "../../../src/vscode/pickers-view";
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
  /** The agent's modes, config options and the policy's mode switch (its session answer; a hosted run's state). */
  readonly info: PickerSource["info"];
  /** A config option's new value as the panel's picker sends it (a boolean option's "true"/"false"). */
  setConfigOption(configId: string, value: string): Promise<void>;
  /** The login state the agent last reported. */
  readonly authStatus: AuthStatus | undefined;
  /** The header's Log in / Log out. */
  auth(action: "login" | "logout"): Promise<void>;
  /** The agent's session id (a hosted thread's: its records'). */
  readonly sessionId: string | undefined;
  /** The agent runs in the OS sandbox. */
  readonly sandboxed: boolean;
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

  get info(): PickerSource["info"] {
    return this.view.sessionState;
  }

  /** What the panel's picker does (its `setConfig` message, routed to the host as the panel routes it). */
  async setConfigOption(configId: string, value: string): Promise<void> {
    await routeHostedControls(this.view, { type: "setConfig", configId, value });
  }

  get authStatus(): AuthStatus | undefined {
    return this.view.sessionState?.authStatus;
  }

  /** What the header's Log in / Log out does (its `login` message). */
  async auth(action: "login" | "logout"): Promise<void> {
    await routeHostedControls(this.view, { type: "login", action });
  }

  /** The agent session it runs in: the last one its records say was opened (a restart opens another). */
  get sessionId(): string | undefined {
    const t = this.hub.threads.read(this.threadId);
    const opened = t.records.findLast((r) => r.kind === "session_open");
    return (
      (opened?.kind === "session_open" ? opened.agentSessionId : undefined) ?? t.metadata.agentSessionId ?? undefined
    );
  }

  get sandboxed(): boolean {
    return this.view.sandboxed;
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

/** The threads the thread hosts hold now (to tell the one a new-thread panel's send starts there: `sessionOfDraft`). */
export const hostedNow = (hub: Hub): Set<string> => new Set(hub.hosted.rows().map((r) => r.threadId));

/**
 * The running thread a new-thread panel's send started: its window session (the draft's id), or the thread a
 * thread host started for it (the panel closes, the thread has an id of its own: the row not in `before`, from
 * `hostedNow` before the send).
 */
export async function sessionOfDraft(
  hub: Hub,
  draft: string,
  before: ReadonlySet<string>,
  what = "the new thread's session",
): Promise<TestSession> {
  const id = await waitFor(what, () =>
    hub.live.get(draft) ? draft : hub.hosted.rows().find((r) => !before.has(r.threadId))?.threadId,
  );
  return await sessionOf(hub, id, what);
}

/**
 * Resolves once the thread's protocol traffic so far is in its traffic file (`<home>/traffic/<id>.ndjson`, a bug
 * bundle's): a window session's recorder is flushed; a hosted run's recorder is the host's (no request flushes it):
 * its file is waited for until it holds `until` (its recorder writes within its 50 ms linger).
 */
export async function trafficWritten(hub: Hub, s: TestSession, until: string): Promise<void> {
  // (each test file bundles its own copy of the classes: the hosted wrapper is this file's, the window session is not)
  if (!(s instanceof HostedSession)) return void (await (s as LiveSession).thread?.flushTraffic());
  const file = join(hub.layout.trafficDir, `${s.threadId}.ndjson`);
  await waitFor(`the thread host's run's traffic with ${until}`, async () =>
    (await readFile(file, "utf8").catch(() => "")).includes(until),
  );
}
