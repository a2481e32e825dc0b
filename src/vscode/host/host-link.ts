/**
 * This window as a client of the thread host (#35, src/core/host): one connection, opened when a host runs (its
 * socket is there) or when this window starts one, kept while the host holds sessions, a panel here follows one or
 * this window serves files (so it has offered them before a new host's first run reads one), and let go otherwise.
 * It says hello as a watching client: kept or not, it never keeps an idle host alive. While connected it subscribes to the host's
 * events and keeps the list of sessions the host holds: read whole from the host's status once connected, then
 * each row as the host pushes it (`session`), on the same ordered socket as the events, before what the host
 * announces of it. So the list is never older than an event this window heard: a reader deciding on an event
 * (Apply, a Best of N candidate's turn end) reads it as is, with no request. Pushes go to the thread views
 * (hosted-thread-view.ts).
 *
 * The same link serves the window's own in-process host (window-host.ts, `InProcessLinkOptions`): connected by a
 * factory instead of at a socket, never started or looked for, never let go.
 *
 * The host this window starts is the extension's own CLI (`dist/cli.js host serve --idle-minutes N`), run by the
 * extension host's Node (Electron as Node on the desktop), with the window's data home as ACP_THREADS_HOME.
 */
import * as vscode from "vscode";
import { connectHost, type HostConnection } from "../../core/host/client";
import { answerServe } from "../../core/host/serve-answer";
import { hostPlace } from "../../core/host/door";
import { HOST_PROTOCOL, type HostPush, type HostSessionInfo } from "../../core/host/protocol";
import { type ServeAnswer, type ServeOffer, type ServeOp } from "../../core/host/protocol-serve";
import type { Logger } from "../../core/log";
import { pathExists } from "../../core/util/path-exists";
import { background } from "../../core/util/unexpected";

interface LinkOptions {
  home: string;
  /** Who this window is, for other clients ("VS Code window (folder, pid N)"). */
  client: string;
  logger: Logger;
  /**
   * What this window serves the host's agents (serve-fs.ts): offered in `hello`, each `serve` push answered (a
   * write not applied once `signal` aborts: the host no longer waits for it).
   */
  serve?: { offer(): ServeOffer | undefined; answer(op: ServeOp, signal: AbortSignal): Promise<ServeAnswer> };
}

/** A link to the user's thread host, at its socket. */
export interface SocketLinkOptions extends LinkOptions {
  /** The CLI whose `host serve` runs the host (the extension's dist/cli.js). */
  script: string;
  /** `acpThreads.host.idleMinutes`, read when this window starts a host. */
  idleMinutes(): number;
}

/**
 * A link to the window's own in-process host (window-host.ts): a new connection from `connect` (undefined: the
 * host is stopped), never started, never looked for at a socket, never let go while the window lives.
 */
export interface InProcessLinkOptions extends LinkOptions {
  connect(serves: ServeOffer | undefined): Promise<HostConnection | undefined>;
}

export type HostLinkOptions = SocketLinkOptions | InProcessLinkOptions;

export class HostLink implements vscode.Disposable {
  #conn: Promise<HostConnection | undefined> | undefined;
  #sessions: readonly HostSessionInfo[] = [];
  #holds = 0;
  /** The open connection's status was read: `sessions` are the host's as of its last message. */
  #synced = false;
  #pid: number | undefined;
  #disposed = false;
  readonly #changed = new vscode.EventEmitter<void>();
  /** The sessions the host holds changed (or the connection went). */
  readonly onDidChange = this.#changed.event;
  readonly #read = new vscode.EventEmitter<void>();
  /**
   * The sessions were read whole from the host's status (a connection opened, a `check`): a session's end or turn's
   * end missed while not connected shows there. (A pushed row is followed by the event that says what happened.)
   */
  readonly onDidSync = this.#read.event;
  readonly #pushed = new vscode.EventEmitter<HostPush>();
  readonly onPush = this.#pushed.event;
  readonly #lost = new vscode.EventEmitter<{ letGo: boolean }>();
  /**
   * The connection closed (the host left or dropped this client: views reattach from their cursors; `letGo`: this
   * window closed it because the host held nothing as of its last status).
   */
  readonly onDidLose = this.#lost.event;
  #lettingGo: HostConnection | undefined;
  /** holdRowsForTests: the rows the host pushed meanwhile, in order, and whether a status read was put off. */
  #rowsHeld: { rows: HostSessionInfo[]; status: boolean } | undefined;
  /** holdPushesForTests: which pushes wait, and those that came meanwhile, in order. */
  #pushesHeld: { which(m: HostPush): boolean; pushes: HostPush[] } | undefined;

  constructor(private readonly opts: HostLinkOptions) {}

  /** The sessions the host holds, as of its last message (none until a connection read the host's status). */
  get sessions(): readonly HostSessionInfo[] {
    return this.#sessions;
  }

  /** A connection is open (or being opened). */
  get connected(): boolean {
    return !!this.#conn;
  }

  /** The process id of the host whose status was read last (kept once the connection closed). */
  get hostPid(): number | undefined {
    return this.#pid;
  }

  /** Connected, and its sessions read from the host: `sessions` say what the host holds (not merely nothing yet). */
  get synced(): boolean {
    return this.#synced && !!this.#conn;
  }

  session(threadId: string): HostSessionInfo | undefined {
    return this.#sessions.find((s) => s.threadId === threadId);
  }

  /** The connection (undefined: no host runs and `start` is false); `start` starts the host when none answers. */
  connection(start = false): Promise<HostConnection | undefined> {
    if (this.#disposed) return Promise.resolve(undefined);
    const open = this.#conn;
    if (open) return open.then((c) => (c || !start ? c : this.#open(true)));
    return this.#open(start);
  }

  /** A link to the window's own in-process host. */
  get inProcess(): boolean {
    return "connect" in this.opts;
  }

  #connect(start: boolean): Promise<HostConnection | undefined> {
    const o = this.opts;
    if ("connect" in o) return o.connect(this.#offer().serves);
    return connectHost({
      home: o.home,
      client: o.client,
      watching: true, // the window's runs keep the host, its looking on does not
      ...this.#offer(),
      ...(start
        ? {
            start: {
              script: o.script,
              env: { ...process.env, ACP_THREADS_HOME: o.home },
              args: ["--idle-minutes", String(o.idleMinutes())],
            },
          }
        : {}),
    });
  }

  #open(start: boolean): Promise<HostConnection | undefined> {
    const conn = this.#connect(start).then(
      (c) => (c ? this.#opened(c) : undefined),
      (err: unknown) => {
        this.opts.logger.warn("could not reach the thread host", err);
        return undefined;
      },
    );
    this.#conn = conn;
    background(
      conn.then((c) => {
        if (!c && this.#conn === conn) this.#conn = undefined;
      }),
      "reaching the thread host",
    );
    return conn;
  }

  #offer(): { serves?: ServeOffer } {
    const serves = this.opts.serve?.offer();
    return serves ? { serves } : {};
  }

  /** The window's folders or trust changed: a connected host is told what this window serves now. */
  async reoffer(): Promise<void> {
    const c = await this.#conn;
    if (!c || c.closed) return;
    const { client } = this.opts;
    // a hello again only replaces the offer (an empty one: nothing served); a connection that goes meanwhile
    // offers anew when it is opened again
    await c
      .request({
        t: "hello",
        protocol: HOST_PROTOCOL,
        client,
        watching: true,
        serves: { fs: false, roots: [] },
        ...this.#offer(),
      })
      .catch(() => undefined);
  }

  /**
   * Answers the host's `serve` ask, saying it still works on it meanwhile (serve-answer.ts); a write the host gave
   * up on (the connection went: the host used the disk) is not applied here, and the user is told.
   */
  #serve(c: HostConnection, ask: number, op: ServeOp): Promise<void> {
    const { serve } = this.opts;
    return answerServe(
      c,
      ask,
      op,
      serve
        ? (o, signal) => serve.answer(o, signal)
        : () => Promise.resolve({ refused: "this window serves no files", code: "permission_denied" }),
      { abandoned: (o, applied) => o.kind === "write" && this.#abandoned(o.path, applied) },
    );
  }

  #abandoned(path: string, applied: boolean): void {
    const what = applied
      ? `The thread host stopped waiting for this window's write to ${path} after it was applied here; the host wrote it to the disk too. Check the file.`
      : `The thread host stopped waiting for this window's write to ${path} (the connection closed); it wrote the file on the disk itself, and this window did not apply it.`;
    this.opts.logger.warn(what);
    void vscode.window.showWarningMessage(`ACP Threads: ${what}`);
  }

  async #opened(c: HostConnection): Promise<HostConnection> {
    c.onPush((m) => {
      if (m.t === "session") return this.#row(m.session);
      if (m.t === "serve") return background(this.#serve(c, m.ask, m.op), "serving the thread host a file");
      if (this.#pushesHeld?.which(m)) return void this.#pushesHeld.pushes.push(m);
      this.#pushed.fire(m);
      // its row said ended before it: once the window heard the end, a host holding nothing is let go
      if (m.t === "event" && m.event.kind === "ended") this.#letGoWhenUnused(c);
    });
    c.onClose(() => {
      this.#conn = undefined;
      this.#synced = false;
      this.#sessions = [];
      this.#changed.fire();
      this.#lost.fire({ letGo: this.#lettingGo === c });
    });
    if (this.#disposed) c.close();
    await c.request({ t: "events" }).catch(() => undefined);
    await this.#status(c);
    return c;
  }

  /** A session's row the host pushed (ended: no longer held), in order with its events. */
  #row(row: HostSessionInfo): void {
    if (this.#rowsHeld) return void this.#rowsHeld.rows.push(row);
    const held = this.#sessions.some((s) => s.threadId === row.threadId);
    if (row.state === "ended") this.#sessions = this.#sessions.filter((s) => s.threadId !== row.threadId);
    else
      this.#sessions = held
        ? this.#sessions.map((s) => (s.threadId === row.threadId ? row : s))
        : [...this.#sessions, row];
    this.#changed.fire();
  }

  /** The host's sessions read whole (its reply comes after every push before it: nothing newer is overwritten). */
  async #status(c: HostConnection): Promise<void> {
    const r = await c.request({ t: "status" }).catch(() => undefined);
    if (r?.t !== "status" || c.closed) return;
    if (this.#rowsHeld) return void (this.#rowsHeld.status = true);
    this.#sessions = r.status.sessions.filter((s) => s.state !== "ended");
    this.#pid = r.status.pid;
    this.#synced = true;
    this.#changed.fire();
    this.#read.fire();
    this.#letGoWhenUnused(c);
  }

  /** No session in the host, no view here following one, nothing served: close (nothing to hear or answer). */
  #letGoWhenUnused(c: HostConnection): void {
    if (this.inProcess) return; // the window's own host: kept while the window lives
    if (!this.#synced || this.#sessions.length || this.#holds || this.opts.serve?.offer() || c.closed) return;
    this.#conn = undefined;
    this.#lettingGo = c;
    c.close();
  }

  /**
   * Looks whether a host runs and what it holds (a new host socket, a thread file changed: a `run --detach` or
   * another window may have started a session). Connects only when the host's socket is there. True when a host
   * answered (its connection open, or let go at once because the host holds nothing); false when none did.
   */
  async check(): Promise<boolean> {
    if (this.#conn) {
      const open = await this.#conn;
      if (open) await this.#status(open); // read again (a new connection read it as it opened)
      return !!open;
    }
    if (!this.inProcess && !(await pathExists(hostPlace(this.opts.home).socket))) return false;
    return !!(await this.connection());
  }

  /** Keeps the connection while the returned disposable lives (a panel following a thread of the host). */
  hold(): vscode.Disposable {
    this.#holds++;
    let released = false;
    return new vscode.Disposable(() => {
      if (released) return;
      released = true;
      this.#holds--;
      background(
        (this.#conn ?? Promise.resolve(undefined)).then((c) => c && this.#letGoWhenUnused(c)),
        "letting go of the thread host",
      );
    });
  }

  /**
   * Test-only (the host suite's stale-row tests, host-stale-row.test.ts): until the returned disposable is
   * disposed, the list of the host's sessions stays as it is (pushed rows wait, a status read is put off), as in a
   * window that has not yet read what the host sent; then the rows apply in order and a put-off status is read again.
   * Events still pass. Nothing in the extension calls it.
   */
  holdRowsForTests(): vscode.Disposable {
    const held = { rows: [] as HostSessionInfo[], status: false };
    this.#rowsHeld = held;
    return new vscode.Disposable(() => {
      if (this.#rowsHeld !== held) return;
      this.#rowsHeld = undefined;
      for (const row of held.rows) this.#row(row);
      if (held.status) background(this.check(), "reading the thread host's status again");
    });
  }

  /**
   * Test-only (host-answered.test.ts): until the returned disposable is disposed, the pushes `which` picks wait (a
   * `settled` push: this window has not heard that another client answered), then they go to the views in order.
   * Replies and the other pushes pass. Nothing in the extension calls it.
   */
  holdPushesForTests(which: (m: HostPush) => boolean): vscode.Disposable {
    const held = { which, pushes: [] as HostPush[] };
    this.#pushesHeld = held;
    return new vscode.Disposable(() => {
      if (this.#pushesHeld !== held) return;
      this.#pushesHeld = undefined;
      for (const m of held.pushes) this.#pushed.fire(m);
    });
  }

  dispose(): void {
    this.#disposed = true;
    background(
      (this.#conn ?? Promise.resolve(undefined)).then((c) => c?.close()),
      "closing the thread host connection",
    );
    this.#changed.dispose();
    this.#read.dispose();
    this.#pushed.dispose();
    this.#lost.dispose();
  }
}
