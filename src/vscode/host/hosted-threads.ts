/**
 * The threads the thread host runs, as this window shows them: the Sessions view's live rows (from the host's
 * status: working, or waiting for input while a question is pending) and, for each thread whose panel is open, one
 * view following it (hosted-thread-view.ts), shared by the panel and its prompt box and let go with the last user.
 */
import * as vscode from "vscode";
import type { HostMetaPatch, HostPush, HostSessionInfo, HostWatchdog } from "../../core/host/protocol";
import { background } from "../../core/util/unexpected";
import type { RetryStep } from "../../core/model/watchdog";
import type { PermissionBroker } from "../permission-broker";
import { FailedStarts, type FailedThread } from "./failed-starts";
import { editorElicitor } from "../elicitation-asker";
import { HostLink, type HostLinkOptions, type InProcessLinkOptions } from "./host-link";
import { HostedThreadView, type HostedStatus, type HostedThreadDeps } from "./hosted-thread-view";
import { HostedTerminals } from "./serve-terminals";
import { StartedHere } from "./started-here";
import { wireTerminalsGone } from "./terminals-gone";

export interface HostedRow {
  threadId: string;
  /** `failed`: its run never started (failed-starts.ts). */
  status: HostedStatus | "failed";
  /** Its watchdog, while it has something to show. */
  watchdog?: HostWatchdog;
  /** The window's own host runs it: the Sessions view draws it as a window session's row (own-rows.ts). */
  own?: true;
  /** A failed start's thread as kept here (a new one is in no listing: it has no file). */
  thread?: FailedThread;
  /** A failed start's reason (its tooltip says it, as a window session's failed row does). */
  detail?: string;
}

/** A run of the window's own host as this window knows it: its row, the view following it, when it was first heard. */
export interface OwnRun {
  row: HostSessionInfo;
  /** The view a panel here follows it with (none: no panel follows it). */
  view: HostedThreadView | undefined;
  /** Epoch ms this window first heard the run's row (the host runs in this process: when it started). */
  since: number;
}

/** How long Stop waits for the host's run to end (its agent closed after a cancel's grace) before it returns. */
const STOP_WAIT_MS = 30_000;

/** A failed start's view asks nobody: its run is over. */
const NOBODY: HostedThreadDeps["asker"] = { ask: () => Promise.resolve(null) };

export class HostedThreads implements vscode.Disposable {
  /** The user's thread host, at its socket (other windows', `run --detach`, this window's in `host` mode). */
  readonly link: HostLink;
  /**
   * The window's own in-process host (window-host.ts), when the window has one: its rows beside the socket host's
   * (a thread is held by one host at a time: keyed by thread id), each thread's requests to the host that holds it.
   */
  readonly own: HostLink | undefined;
  /** The host's agents' terminals this window shows (serve-terminals.ts). */
  readonly terminals: HostedTerminals;
  /** This window's name to the host's other clients (and in the `answered` events of its own sessions). */
  readonly client: string;
  /** The threads this window started or continued in the host (their finished turns are told here, also after a reload). */
  readonly startedHere: StartedHere;
  /** The threads whose run a host failed to start: failed rows and panels until stopped (failed-starts.ts). */
  readonly failed = new FailedStarts();
  readonly #views = new Map<string, { view: HostedThreadView; users: number }>();
  /** The detach of each thread's last view, which a new view's attach waits for. */
  readonly #detaching = new Map<string, Promise<void>>();
  readonly #changed = new vscode.EventEmitter<void>();
  /** The host's sessions or a followed thread's status changed (the Sessions view redraws its rows). */
  readonly onDidChange = this.#changed.event;
  readonly #subs: vscode.Disposable[];
  readonly #gone: ReturnType<typeof wireTerminalsGone>;
  /** The terminals the window's own host showed here (their input goes back to it; ids are unique across hosts). */
  readonly #ownTerms = new Set<string>();
  /** When each run the window's own host holds was first heard (`OwnRun.since`). */
  readonly #ownSince = new Map<string, number>();

  /** `state`: the workspace's (where startedHere is kept); `own`: the link to the window's own host. */
  constructor(
    opts: HostLinkOptions,
    private readonly broker: PermissionBroker,
    state: Pick<vscode.Memento, "get" | "update">,
    own?: InProcessLinkOptions,
  ) {
    this.startedHere = new StartedHere(state);
    this.link = new HostLink(opts);
    this.own = own && new HostLink(own);
    this.client = opts.client;
    this.terminals = new HostedTerminals(async (term, input) => {
      const c = await (this.own && this.#ownTerms.has(term) ? this.own : this.link).connection();
      // a connection that went: the host shows the terminal again once reconnected (the terminal says it closed)
      if (!c || c.closed) return;
      await c.request({ t: "terminal_input", term, ...input }).catch((err: unknown) => {
        if (!c.closed) throw err; // the host refused it: the terminal says so
      });
    });
    this.#gone = wireTerminalsGone(this.link, this.terminals);
    this.#subs = [
      this.link.onDidChange(() => this.#changed.fire()),
      this.failed.onDidChange(() => this.#changed.fire()),
      this.link.onPush((m) => (m.t === "terminal" || m.t === "terminal_output") && this.terminals.push(m)),
      this.link.onDidLose(() => this.terminals.lost()),
      this.#gone,
      ...(this.own ? this.#ownSubs(this.own) : []),
    ];
  }

  /**
   * The own host's rows and terminals. Its link is lost only when the window stops it (its terminals then end with
   * their runs): the socket host's lost-terminal checks (terminals-gone.ts) are not wired to it, as they would end
   * the socket host's terminals shown here too.
   */
  #ownSubs(own: HostLink): vscode.Disposable[] {
    return [
      own.onDidChange(() => {
        this.#heard(own.sessions);
        this.#changed.fire();
      }),
      own.onPush((m) => {
        if (m.t !== "terminal" && m.t !== "terminal_output") return;
        if (m.t === "terminal") this.#ownTerms.add(m.term);
        else if (m.exit) this.#ownTerms.delete(m.term);
        this.terminals.push(m);
      }),
    ];
  }

  /** Notes when each of the own host's runs was first heard; forgets those it no longer holds. */
  #heard(sessions: readonly HostSessionInfo[]): void {
    const now = Date.now();
    const held = new Set(sessions.map((s) => s.threadId));
    for (const id of this.#ownSince.keys()) if (!held.has(id)) this.#ownSince.delete(id);
    for (const id of held) if (!this.#ownSince.has(id)) this.#ownSince.set(id, now);
  }

  /** A run of the window's own host (undefined: it holds no such thread). */
  ownRun(threadId: string): OwnRun | undefined {
    const row = this.own?.session(threadId);
    return row && { row, view: this.get(threadId), since: this.#ownSince.get(threadId) ?? Date.now() };
  }

  /** Both hosts' sessions (the socket host's, then the window's own; a thread is held by one of them). */
  get sessions(): readonly HostSessionInfo[] {
    return this.own ? [...this.link.sessions, ...this.own.sessions] : this.link.sessions;
  }

  /** Both hosts' pushes (a thread's come from the host that holds it). */
  onPush(listener: (m: HostPush) => void): vscode.Disposable {
    const subs = [this.link.onPush(listener), ...(this.own ? [this.own.onPush(listener)] : [])];
    return new vscode.Disposable(() => subs.forEach((s) => s.dispose()));
  }

  /** The window's folders or trust changed: each connected host is told what this window serves now. */
  async reoffer(): Promise<void> {
    await Promise.all([this.link.reoffer(), this.own?.reoffer()]);
  }

  /** The link of the host that holds the thread (the window's own, else the socket host's). */
  linkOf(threadId: string): HostLink {
    return this.own?.session(threadId) ? this.own : this.link;
  }

  /**
   * Settles once the terminals shown here were checked against the host after the connections lost so far
   * (terminals-gone.ts; the host test waits for it).
   */
  terminalsChecked(): Promise<void> {
    return this.#gone.looked();
  }

  /** The threads the host holds, with their status (a followed one's own, else the host's). */
  rows(): HostedRow[] {
    const own = this.own?.sessions ?? [];
    const sessions = own.length
      ? [...this.link.sessions.filter((s) => !this.own?.session(s.threadId)), ...own]
      : this.link.sessions;
    const rows = sessions.map((s): HostedRow => ({
      threadId: s.threadId,
      status:
        this.get(s.threadId)?.status ?? (s.pending ? "waiting_permission" : s.state === "idle" ? "idle" : "working"),
      ...(s.watchdog ? { watchdog: s.watchdog } : {}),
      ...(own.includes(s) ? { own: true as const } : {}),
    }));
    const held = new Set(rows.map((r) => r.threadId));
    const failed = this.failed.all().filter((f) => !held.has(f.thread.threadId));
    return [
      ...rows,
      ...failed.map((f): HostedRow => ({
        threadId: f.thread.threadId,
        status: "failed",
        thread: f.thread,
        detail: f.reason,
      })),
    ];
  }

  holds(threadId: string): boolean {
    return !!this.linkOf(threadId).session(threadId) || !!this.get(threadId);
  }

  /** The view of a thread the host runs that a panel here follows (undefined: none, or its run ended). */
  get(threadId: string): HostedThreadView | undefined {
    const v = this.#views.get(threadId)?.view;
    return v && !v.ended ? v : undefined;
  }

  /**
   * Follows a thread the host holds, attached from the cursor (a second user shares the view); undefined when the
   * host does not hold it. The disposable lets go (the last user detaches).
   */
  open(threadId: string): { view: HostedThreadView; release: vscode.Disposable } | undefined {
    const failed = this.linkOf(threadId).session(threadId) ? undefined : this.failed.get(threadId);
    if (failed) {
      // its run's end: nothing to attach to (each user its own view)
      const view = new HostedThreadView(threadId, {
        link: this.link,
        asker: NOBODY,
        settled: () => {},
        unstarted: failed,
      });
      return {
        view,
        release: new vscode.Disposable(() => background(view.dispose(), "letting a failed start's view go")),
      };
    }
    let entry = this.#views.get(threadId);
    if (entry?.view.ended && !entry.users) {
      this.#let(threadId, entry.view);
      entry = undefined;
    }
    if (!entry) {
      const link = this.linkOf(threadId);
      if (!link.session(threadId)) return undefined;
      // the question's notification names the agent, as for a window session (its thread_start record, once seen)
      const label = () => this.#views.get(threadId)?.view.agentName ?? "The thread host's agent";
      const view = new HostedThreadView(threadId, {
        link,
        asker: this.broker.askerFor(threadId, label),
        settled: (prompt, optionId, by) => this.broker.settledElsewhere(prompt, optionId, by),
        elicitor: editorElicitor(() => "The thread host's agent"),
        after: this.#detaching.get(threadId),
      });
      entry = { view, users: 0 };
      this.#views.set(threadId, entry);
      view.onStatus(() => this.#changed.fire());
      background(view.attach(), "attaching to a thread of the thread host");
    }
    const held = entry;
    held.users++;
    let released = false;
    return {
      view: held.view,
      release: new vscode.Disposable(() => {
        if (released) return;
        released = true;
        if (--held.users > 0 || this.#views.get(threadId) !== held) return;
        this.#let(threadId, held.view);
      }),
    };
  }

  /**
   * Patches a thread through the host, whose run holds its file (a `patch` request: the run writes it, every client
   * gets the record): its title, or a fork / handoff it lists; false when no host answers (nothing sent). The host's
   * refusal rejects: it does not hold the thread (its run ended), or the patch is not one it takes.
   */
  async patch(threadId: string, patch: HostMetaPatch): Promise<boolean> {
    const c = await this.linkOf(threadId).connection();
    if (!c || c.closed) return false;
    await c.request({ t: "patch", threadId, patch });
    return true;
  }

  /**
   * `patch` to whichever connected host takes it (the window's own, then the socket host's; none is started for
   * this): for a thread a host may hold before its status told this window. False: none took it.
   */
  async patchWhereHeld(threadId: string, patch: HostMetaPatch): Promise<boolean> {
    for (const link of [this.own, this.link]) {
      if (!link?.connected) continue;
      const c = await link.connection();
      if (!c || c.closed) continue;
      if (
        await c.request({ t: "patch", threadId, patch }).then(
          () => true,
          () => false,
        )
      )
        return true;
    }
    return false;
  }

  /** The watchdog of a thread the host runs, as of the host's last status (undefined: nothing to show). */
  watchdog(threadId: string): HostWatchdog | undefined {
    return this.linkOf(threadId).session(threadId)?.watchdog;
  }

  /** Whether the watchdog of a thread the host runs climbs the retry ladder by itself (`retry: auto`). */
  autoRetry(threadId: string): boolean {
    return !!this.linkOf(threadId).session(threadId)?.autoRetry;
  }

  /** Takes the watchdog's rung `step` (none: the next) of a thread the host runs, or forgets its alert. */
  async retry(threadId: string, step?: RetryStep, dismiss = false): Promise<void> {
    const c = await this.linkOf(threadId).connection();
    if (!c) throw new Error("The thread host is not running anymore.");
    await c.request({ t: "retry", threadId, ...(step ? { step } : {}), ...(dismiss ? { dismiss } : {}) });
  }

  /** Cancels the running turn of a thread the host runs, followed here or not (the Sessions view's Cancel). */
  async cancel(threadId: string): Promise<void> {
    const c = await this.linkOf(threadId).connection();
    if (!c) throw new Error("The thread host is not running anymore.");
    await c.request({ t: "cancel", threadId });
  }

  /**
   * Ends the host's run on a thread (Stop on its row or panel): a running turn is cancelled, its agent closed; the
   * panel then shows the stored thread. Resolves once the host let the thread go (its run ended: the thread is
   * released, as a window session's is when its Stop returns), or after STOP_WAIT_MS.
   */
  async stop(threadId: string): Promise<void> {
    const c = await this.linkOf(threadId).connection();
    if (!c) throw new Error("The thread host is not running anymore.");
    await c.request({ t: "stop_thread", threadId });
    await new Promise<void>((resolve) => {
      const done = () => {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      };
      const check = () => !this.holds(threadId) && done();
      const sub = this.onDidChange(check);
      const timer = setTimeout(done, STOP_WAIT_MS);
      check();
    });
  }

  /** Stops an exec run the host owns (its terminal here was closed). */
  async stopExec(runId: string): Promise<void> {
    const c = await this.link.connection();
    if (!c) throw new Error("The thread host is not running anymore.");
    await c.request({ t: "exec_stop", runId });
  }

  /** Lets a thread's view go; the next view of the thread attaches after its detach. */
  #let(threadId: string, view: HostedThreadView): void {
    this.#views.delete(threadId);
    const detached = view.dispose();
    this.#detaching.set(threadId, detached);
    background(
      detached.then(() => this.#detaching.get(threadId) === detached && this.#detaching.delete(threadId)),
      "detaching from a thread of the thread host",
    );
  }

  dispose(): void {
    for (const { view } of this.#views.values()) background(view.dispose(), "detaching from the thread host");
    this.#views.clear();
    for (const s of this.#subs) s.dispose();
    this.terminals.dispose();
    this.link.dispose();
    this.own?.dispose();
    this.failed.dispose();
    this.#changed.dispose();
  }
}
