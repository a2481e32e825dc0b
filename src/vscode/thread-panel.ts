/**
 * One thread's webview panel: renders a live session (events batched every 50 ms), a thread the thread host runs
 * (host/hosted-panel.ts) or a past thread (scrolled to the end; a prompt typed in it resumes the thread), relays
 * the webview's messages (prompt box, permissions, pickers, ops strip; code and turn actions: panel-actions.ts) to
 * the host and keeps the ledger's "files changed" rows current. `ThreadPanels` (thread-panels.ts) keeps one each.
 */
import * as vscode from "vscode";
import type { RuntimeEvent } from "../core/model/events";
import { errorMessage } from "../core/errors";
import {
  parseWebviewMessage,
  type HostMessage,
  type RenderedView,
  type WebviewMessage,
} from "../webview/thread/protocol";
import { UsageMeter } from "../core/usage/meter";
import { pickersView } from "./pickers-view";
import { describeReading } from "./usage-status";
import { loginView } from "./login-view";
import { displayTitle } from "./thread-title";
import type { CodeActions } from "./code-actions";
import { isPanelAction, panelAction } from "./panel-actions";
import { PanelFeed } from "./panel-feed";
import { noteShown, panelShown } from "./panel-shown";
import type { ComposerHost } from "./composer/composer-host";
import type { LiveSession } from "./live-session";
import { liveInit, liveStatus, promptWhenIdle } from "./live-panel";
import type { HostedThreadView } from "./host/hosted-thread-view";
import { initHosted, routeHosted, type HostedPanelSurface } from "./host/hosted-panel";
import type { PermissionBroker } from "./permission-broker";
import type { PastThreadSummary } from "./sessions-tree";
import { THREAD_BODY, webviewHtml, webviewOptions } from "./webview-html";
import { background } from "../core/util/unexpected";

export interface PastThread extends PastThreadSummary {
  events: RuntimeEvent[];
  /** Where its records end in its file: following the thread goes on from there (nothing lost or doubled). */
  offset?: number;
}

export interface ThreadPanelDeps {
  extensionUri: vscode.Uri;
  broker: PermissionBroker;
  live(threadId: string): LiveSession | undefined;
  loadPast(threadId: string): Promise<PastThread | undefined>;
  onTerminalOutput: vscode.Event<TerminalOutputEvent>;
  recentTerminalOutput(sessionId: string): Omit<TerminalOutputEvent, "sessionId">[];
  /** Renames a stored thread (the panel's title edit). */
  rename?(threadId: string, title: string): Promise<void>;
  /** "N files changed" rows of a stored thread (edit ledger), posted now and on every change. */
  followTurnChanges?(post: (m: HostMessage) => void, threadId: () => string | undefined): vscode.Disposable;
  /** The ops strip (#13): watchdog, read-only holder, handoff links; see thread-ops.ts. */
  ops?: {
    attach(threadId: string, post: (m: HostMessage) => void, viaHost?: boolean, readTo?: number): vscode.Disposable;
    handle(threadId: string, action: Extract<WebviewMessage, { type: "ops" }>): Promise<void>;
  };
  /** The prompt box's host side (src/vscode/composer): new-thread drafts, its messages, its state. */
  composer?: ComposerHost;
  /** Follows a thread the thread host runs (#35; undefined when it does not hold it): see host/hosted-threads.ts. */
  hosted?(threadId: string): { view: HostedThreadView; release: vscode.Disposable } | undefined;
}

export interface TerminalOutputEvent {
  sessionId: string;
  terminalId: string;
  data: string;
  exit?: { exitCode: number | null; signal: string | null };
}

export class ThreadPanel implements vscode.Disposable {
  readonly #subs: vscode.Disposable[] = [];
  /** Redraws (their generations), the messages waiting for one, the batched live events: panel-feed.ts. */
  readonly #feed: PanelFeed;
  /** What the webview last reported drawing (the host suite checks that a thread really rendered). */
  rendered: RenderedView | undefined;
  /** The title and usage figure the header was last sent (the host suite compares them with the tab's). */
  readonly shown = panelShown();
  #cwd = "";
  /** The thread's usage, folded like the status bar's (same events, same words). */
  #usage = new UsageMeter();
  /** The thread the thread host runs that this panel follows (prompt, cancel go there). */
  #hosted: HostedThreadView | undefined;
  /** The panel shows a stored thread (read-only until resumed): set once drawn so. */
  #past = false;

  constructor(
    readonly threadId: string,
    readonly panel: vscode.WebviewPanel,
    private readonly deps: ThreadPanelDeps,
    private readonly code: CodeActions,
    private focusEvent?: number,
    /** A restored panel's new thread was in this folder before the reload (its webview's state). */
    private readonly draftFolder?: string,
  ) {
    this.#feed = new PanelFeed(
      (m) => void panel.webview.postMessage(m),
      (m) => noteShown(this.shown, m),
    );
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, "media", "icon.svg");
    panel.webview.html = webviewHtml(panel.webview, deps.extensionUri, {
      script: "thread.js",
      css: "thread.css",
      title: "Thread",
      body: THREAD_BODY,
    });
    this.#subs.push(
      panel.webview.onDidReceiveMessage((raw) =>
        background(this.#onMessage(parseWebviewMessage(raw)), "handling a panel message"),
      ),
    );
    this.#subs.push(
      deps.onTerminalOutput(
        (o) =>
          o.sessionId === this.#live()?.sessionId &&
          this.post({ type: "terminalOutput", terminalId: o.terminalId, data: o.data, exit: o.exit }),
      ),
    );
  }

  #live(): LiveSession | undefined {
    return this.deps.live(this.threadId);
  }

  post(m: HostMessage): void {
    this.#feed.post(m);
  }

  /** `past`: a stored thread's events as this panel loaded them (its image chips get their thumbnails). */
  #attachComposer(past?: readonly RuntimeEvent[]): void {
    if (this.deps.composer) this.#subs.push(this.deps.composer.attach(this, past));
  }

  /**
   * Draws the thread (a redraw of the feed). A newer init (a refresh: the session left memory, a live session took
   * over) makes this one stale: it stops at its next await, so the panel ends as the newest init draws it, with
   * only that init's subscriptions.
   */
  async #init(stale: () => boolean): Promise<void> {
    for (const s of this.#subs.splice(2)) s.dispose(); // a webview reload (ready again) re-subscribes
    this.#usage = new UsageMeter();
    this.#hosted = undefined;
    this.#past = false;
    const live = this.#live();
    const hosted = live?.isOpen ? undefined : this.deps.hosted?.(this.threadId);
    if (hosted) {
      this.#hosted = hosted.view;
      const cwd = await initHosted(this.#surface(stale), hosted.view, hosted.release);
      if (cwd !== undefined) this.#cwd = cwd;
      return;
    }
    if (live) {
      // subscribe in the tick the transcript is snapshot (every later event comes once), post none before init
      this.#feed.hold();
      this.#subs.push(live.onEvents((evs) => this.#enqueue(evs)));
      const events = await live.transcript().catch((err) => {
        void vscode.window.showWarningMessage(`Could not read the thread: ${errorMessage(err)}`);
        return [...live.events];
      });
      if (stale()) return;
      const queued = this.#feed.release();
      this.panel.title = live.title;
      this.#cwd = live.cwd;
      this.post({ type: "init", ...liveInit(live), events, ...this.#takeFocus() });
      // the transcript, then what arrived while it loaded (queued, not yet posted): in the order they happened
      this.#usage = new UsageMeter();
      this.#foldUsage([...events, ...queued]);
      for (const v of this.deps.broker.pendingFor(live.threadId)) this.post({ type: "permission", prompt: v });
      if (live.sessionId)
        for (const t of this.deps.recentTerminalOutput(live.sessionId)) this.post({ type: "terminalOutput", ...t });
      this.#flush();
      this.#subs.push(
        live.onStatus((s) => {
          this.#flush();
          this.post(liveStatus(live, s));
          if (s === "idle") this.#postPickers(live);
          if (s === "idle") this.post(loginView(live)); // the agent's capabilities (its actions) are known now
        }),
      );
      this.#postPickers(live);
      // the agent's login state next to its name, redrawn when it reports a new one (never stored in the thread)
      this.post(loginView(live));
      this.#subs.push(live.onAuthStatus(() => this.post(loginView(live))));
      this.#followChanges();
      this.#attachOps();
      this.#attachComposer(events);
      return;
    }
    const draft = await this.deps.composer?.isDraft(this.threadId, this.draftFolder);
    if (stale()) return;
    if (draft && this.deps.composer) {
      const header = this.deps.composer.draftHeader(this.threadId);
      this.panel.title = header.title;
      this.post({ type: "init", header, status: "draft", events: [], scrollToEnd: true });
      return this.#attachComposer();
    }
    const past = await this.deps.loadPast(this.threadId).catch((err) => {
      void vscode.window.showErrorMessage(`Could not open the thread: ${errorMessage(err)}`);
      return undefined;
    });
    if (stale()) return;
    if (!past) return this.post({ type: "status", status: "failed", detail: "thread not found" });
    this.#past = true;
    this.panel.title = displayTitle(past.title);
    this.#cwd = past.cwd;
    this.post({
      type: "init",
      header: {
        threadId: past.threadId,
        title: displayTitle(past.title),
        agent: past.agent,
        cwd: past.cwd,
        sessionId: past.sessionId,
        acceptsInput: false,
        resumable: past.mode === "acp", // typing resumes it (#37); an exec run's thread has no agent to resume
      },
      status: "readonly",
      events: past.events,
      ...this.#takeFocus(),
    });
    this.#foldUsage(past.events);
    this.#attachOps(false, past.offset);
    this.#followChanges();
    this.#attachComposer(past.events);
  }

  /** What the hosted init (host/hosted-panel.ts) draws with. */
  #surface(stale: () => boolean): HostedPanelSurface {
    return {
      threadId: this.threadId,
      stale,
      panel: this.panel,
      broker: this.deps.broker,
      loadPast: (id) => this.deps.loadPast(id),
      subscribe: (d) => this.#subs.push(d),
      enqueue: (evs) => this.#enqueue(evs),
      flush: () => this.#flush(),
      post: (m) => this.post(m),
      takeFocus: () => this.#takeFocus(),
      foldUsage: (evs) => this.#foldUsage(evs),
      terminals: { onOutput: this.deps.onTerminalOutput, recentOutput: (sid) => this.deps.recentTerminalOutput(sid) },
      follow: (evs) => (this.#followChanges(), this.#attachOps(true), this.#attachComposer(evs)),
    };
  }

  /**
   * The ops strip (handoff and fork links, the read-only holder, the watchdog's alerts) of this panel's thread.
   * `readTo`: where the records this panel drew end in the thread's file (a stored thread's).
   */
  #attachOps(viaHost = false, readTo?: number): void {
    if (this.deps.ops) this.#subs.push(this.deps.ops.attach(this.threadId, (m) => this.post(m), viaHost, readTo));
  }

  /** The scroll position an init goes to: a recall hit's event (once), else the end. */
  #takeFocus(): { scrollToEnd: boolean; focusEvent?: number } {
    const focusEvent = this.focusEvent;
    this.focusEvent = undefined;
    return { scrollToEnd: focusEvent === undefined, focusEvent };
  }

  /** Whether this panel follows a thread the thread host runs. */
  get hosted(): boolean {
    return !!this.#hosted;
  }

  /** Whether this panel was drawn as a stored thread (not live here, not followed in the host). */
  get showsPast(): boolean {
    return this.#past;
  }

  /** "N files changed" rows under the turns (the panel's id is the stored thread's, live or past). */
  #followChanges(): void {
    const sub = this.deps.followTurnChanges?.(
      (m) => this.post(m),
      () => this.threadId,
    );
    if (sub) this.#subs.push(sub);
  }

  #postPickers(live: LiveSession): void {
    this.post({ type: "pickers", pickers: pickersView(live) });
  }

  #enqueue(evs: RuntimeEvent[]): void {
    // An agent-given title (session_info) replaces the first prompt: the tab and the header show the session's
    // title (thread-title.ts), never the event's raw text
    if (evs.some((e) => e.type === "session_info" && e.title)) this.#retitle(this.#live()?.title);
    // a mode or option change (ours or the agent's) redraws the pickers at once: they never disagree with the agent
    const live = evs.some((e) => e.type === "mode" || e.type === "config_options") ? this.#live() : undefined;
    if (live) this.#postPickers(live);
    this.#foldUsage(evs, true);
    this.#feed.enqueue(evs);
  }

  /** Folds events into the usage figure; posts it when `onlyChanged` is false or it changed. */
  #foldUsage(evs: readonly RuntimeEvent[], onlyChanged = false): void {
    let changed = false;
    for (const e of evs) changed = this.#usage.add(e) || changed;
    if (changed || !onlyChanged) this.post({ type: "usage", text: describeReading(this.#usage.reading) });
  }

  /** The tab and the header show `title` (the one display title of the thread). */
  #retitle(title: string | undefined): void {
    if (!title) return;
    this.panel.title = title;
    this.post({ type: "title", title });
  }

  #flush(): void {
    this.#feed.flush();
  }

  async #onMessage(m: WebviewMessage | undefined): Promise<void> {
    if (!m) return;
    const live = this.#live();
    try {
      if (this.#hosted && (await routeHosted(this.#hosted, m, this.deps.broker))) return;
      if (isPanelAction(m)) return await panelAction(m, this.threadId, this.code, this.#cwd);
      switch (m.type) {
        case "ready":
          return await this.#feed.redraw((stale) => this.#init(stale));
        case "prompt":
          return void live?.prompt(m.text).catch((err) => vscode.window.showErrorMessage(errorMessage(err)));
        case "cancel":
          return void (await live?.cancel());
        case "permission":
          if (!this.deps.broker.answer(m.requestId, m.optionId) || !m.feedback) return;
          if (live) promptWhenIdle(live, m.feedback);
          return;
        case "rename": {
          const title = displayTitle(m.title);
          try {
            await this.deps.rename?.(this.threadId, title); // a live session and its thread share the id
          } catch (err) {
            this.#retitle(this.panel.title); // the header showed the edit already: back to the stored title
            throw err;
          }
          if (live) live.title = title;
          this.#retitle(title);
          return;
        }
        case "review":
          return await this.deps.broker.review(m.requestId);
        case "setMode":
          return await live?.setMode(m.modeId);
        case "login":
          return await live?.auth(m.action);
        case "setConfig":
          return await live?.setConfigOption(m.configId, m.value);
        case "ops":
          return await this.deps.ops?.handle(this.threadId, m);
        case "rendered":
          this.rendered = { entries: m.entries, inDom: m.inDom, answeredBy: m.answeredBy, answered: m.answered };
          return;
        default:
          return await this.deps.composer?.handle(this, m);
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`ACP Threads: ${errorMessage(err)}`);
    }
  }

  /** Shows the thread again scrolled to its `event`-th event, highlighted (a recall hit in an open panel). */
  focus(event: number): void {
    this.focusEvent = event;
    this.refresh();
  }

  /** Renders the thread again from scratch (a live session took over the thread this panel shows). */
  refresh(): void {
    background(this.#onMessage({ type: "ready" }), "rendering the thread");
  }

  dispose(): void {
    this.#feed.dispose();
    for (const s of this.#subs.splice(0)) s.dispose();
  }
}
