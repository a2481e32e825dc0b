/**
 * The threads the thread host runs, as this window shows them: the Sessions view's live rows (from the host's
 * status: working, or waiting for input while a question is pending) and, for each thread whose panel is open, one
 * view following it (hosted-thread-view.ts), shared by the panel and its prompt box and let go with the last user.
 */
import * as vscode from "vscode";
import type { HostMetaPatch, HostWatchdog } from "../../core/host/protocol";
import { background } from "../../core/util/unexpected";
import type { RetryStep } from "../../core/model/watchdog";
import type { PermissionBroker } from "../permission-broker";
import { editorElicitor } from "../elicitation-asker";
import { HostLink, type HostLinkOptions, type InProcessLinkOptions } from "./host-link";
import { HostedThreadView, type HostedStatus } from "./hosted-thread-view";
import { HostedTerminals } from "./serve-terminals";
import { StartedHere } from "./started-here";
import { wireTerminalsGone } from "./terminals-gone";

export interface HostedRow {
  threadId: string;
  status: HostedStatus;
  /** Its watchdog, while it has something to show. */
  watchdog?: HostWatchdog;
}

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
  readonly #views = new Map<string, { view: HostedThreadView; users: number }>();
  /** The detach of each thread's last view, which a new view's attach waits for. */
  readonly #detaching = new Map<string, Promise<void>>();
  readonly #changed = new vscode.EventEmitter<void>();
  /** The host's sessions or a followed thread's status changed (the Sessions view redraws its rows). */
  readonly onDidChange = this.#changed.event;
  readonly #subs: vscode.Disposable[];
  readonly #gone: ReturnType<typeof wireTerminalsGone>;

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
      const c = await this.link.connection();
      // a connection that went: the host shows the terminal again once reconnected (the terminal says it closed)
      if (!c || c.closed) return;
      await c.request({ t: "terminal_input", term, ...input }).catch((err: unknown) => {
        if (!c.closed) throw err; // the host refused it: the terminal says so
      });
    });
    this.#gone = wireTerminalsGone(this.link, this.terminals);
    this.#subs = [
      this.link.onDidChange(() => this.#changed.fire()),
      this.link.onPush((m) => (m.t === "terminal" || m.t === "terminal_output") && this.terminals.push(m)),
      this.link.onDidLose(() => this.terminals.lost()),
      this.#gone,
      ...(this.own ? [this.own.onDidChange(() => this.#changed.fire())] : []),
    ];
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
    return sessions.map((s) => ({
      threadId: s.threadId,
      status:
        this.get(s.threadId)?.status ?? (s.pending ? "waiting_permission" : s.state === "idle" ? "idle" : "working"),
      ...(s.watchdog ? { watchdog: s.watchdog } : {}),
    }));
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

  /** The watchdog of a thread the host runs, as of the host's last status (undefined: nothing to show). */
  watchdog(threadId: string): HostWatchdog | undefined {
    return this.linkOf(threadId).session(threadId)?.watchdog;
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
   * panel then shows the stored thread.
   */
  async stop(threadId: string): Promise<void> {
    const c = await this.linkOf(threadId).connection();
    if (!c) throw new Error("The thread host is not running anymore.");
    await c.request({ t: "stop_thread", threadId });
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
    this.#changed.dispose();
  }
}
