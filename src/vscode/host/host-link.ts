/**
 * This window as a client of the thread host (#35, src/core/host): one connection, opened when a host runs (its
 * socket is there) or when this window starts one, kept while the host holds sessions, a panel here follows one or
 * this window serves files (so it has offered them before a new host's first run reads one), and let go otherwise.
 * It says hello as a watching client: kept or not, it never keeps an idle host alive. While connected it subscribes to the host's
 * events and keeps the list of sessions the host holds (status after each event), for the Sessions view's live
 * rows; pushes go to the thread views (hosted-thread-view.ts).
 *
 * The host this window starts is the extension's own CLI (`dist/cli.js host serve --idle-minutes N`), run by the
 * extension host's Node (Electron as Node on the desktop), with the window's data home as ACP_THREADS_HOME.
 */
import { access } from "node:fs/promises";
import * as vscode from "vscode";
import { connectHost, type HostConnection } from "../../core/host/client";
import { answerServe } from "../../core/host/serve-answer";
import { hostPlace } from "../../core/host/door";
import { HOST_PROTOCOL, type HostPush, type HostSessionInfo } from "../../core/host/protocol";
import { type ServeAnswer, type ServeOffer, type ServeOp } from "../../core/host/protocol-serve";
import type { Logger } from "../../core/log";
import { background } from "../../core/util/unexpected";

export interface HostLinkOptions {
  home: string;
  /** The CLI whose `host serve` runs the host (the extension's dist/cli.js). */
  script: string;
  /** `acpThreads.host.idleMinutes`, read when this window starts a host. */
  idleMinutes(): number;
  /** Who this window is, for other clients ("VS Code window (folder, pid N)"). */
  client: string;
  logger: Logger;
  /**
   * What this window serves the host's agents (serve-fs.ts): offered in `hello`, each `serve` push answered (a
   * write not applied once `signal` aborts: the host no longer waits for it).
   */
  serve?: { offer(): ServeOffer | undefined; answer(op: ServeOp, signal: AbortSignal): Promise<ServeAnswer> };
}

/** Events come in bursts (a question, its answer): one status request after them. */
const STATUS_DEBOUNCE_MS = 100;

export class HostLink implements vscode.Disposable {
  #conn: Promise<HostConnection | undefined> | undefined;
  #sessions: readonly HostSessionInfo[] = [];
  #holds = 0;
  #statusTimer: NodeJS.Timeout | undefined;
  #disposed = false;
  readonly #changed = new vscode.EventEmitter<void>();
  /** The sessions the host holds changed (or the connection went). */
  readonly onDidChange = this.#changed.event;
  readonly #pushed = new vscode.EventEmitter<HostPush>();
  readonly onPush = this.#pushed.event;
  readonly #lost = new vscode.EventEmitter<{ letGo: boolean }>();
  /**
   * The connection closed (the host left or dropped this client: views reattach from their cursors; `letGo`: this
   * window closed it because the host held nothing as of its last status).
   */
  readonly onDidLose = this.#lost.event;
  #lettingGo: HostConnection | undefined;

  constructor(private readonly opts: HostLinkOptions) {}

  /** The sessions the host holds, as of its last status. */
  get sessions(): readonly HostSessionInfo[] {
    return this.#sessions;
  }

  /** A connection is open (or being opened). */
  get connected(): boolean {
    return !!this.#conn;
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

  #open(start: boolean): Promise<HostConnection | undefined> {
    const { home, script, client } = this.opts;
    const conn = connectHost({
      home,
      client,
      watching: true, // the window's runs keep the host, its looking on does not
      ...this.#offer(),
      ...(start
        ? {
            start: {
              script,
              env: { ...process.env, ACP_THREADS_HOME: home },
              args: ["--idle-minutes", String(this.opts.idleMinutes())],
            },
          }
        : {}),
    }).then(
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
      if (m.t === "event" || m.t === "watchdog") this.#statusSoon();
      if (m.t === "serve") return background(this.#serve(c, m.ask, m.op), "serving the thread host a file");
      this.#pushed.fire(m);
    });
    c.onClose(() => {
      // a status read pending for this connection is not a reason to open another (the wiring decides that)
      clearTimeout(this.#statusTimer);
      this.#statusTimer = undefined;
      this.#conn = undefined;
      this.#sessions = [];
      this.#changed.fire();
      this.#lost.fire({ letGo: this.#lettingGo === c });
    });
    if (this.#disposed) c.close();
    await c.request({ t: "events" }).catch(() => undefined);
    await this.#status(c);
    return c;
  }

  #statusSoon(): void {
    clearTimeout(this.#statusTimer);
    this.#statusTimer = setTimeout(() => {
      this.#statusTimer = undefined;
      background(
        (this.#conn ?? Promise.resolve(undefined)).then((c) => (c && !c.closed ? this.#status(c) : undefined)),
        "reading the thread host's status",
      );
    }, STATUS_DEBOUNCE_MS);
  }

  async #status(c: HostConnection): Promise<void> {
    const r = await c.request({ t: "status" }).catch(() => undefined);
    if (r?.t !== "status") return;
    this.#sessions = r.status.sessions.filter((s) => s.state !== "ended");
    this.#changed.fire();
    this.#letGoWhenUnused(c);
  }

  /** No session in the host, no view here following one, nothing served: close (nothing to hear or answer). */
  #letGoWhenUnused(c: HostConnection): void {
    if (this.#sessions.length || this.#holds || this.opts.serve?.offer() || c.closed) return;
    this.#conn = undefined;
    this.#lettingGo = c;
    c.close();
  }

  /**
   * Looks whether a host runs and what it holds (a new host socket, a thread file changed: a `run --detach` or
   * another window may have started a session). Connects only when the host's socket is there.
   */
  async check(): Promise<void> {
    if (this.#conn) return void (await this.#conn.then((c) => c && this.#status(c)));
    const there = await access(hostPlace(this.opts.home).socket).then(
      () => true,
      () => false,
    );
    if (there) await this.connection();
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

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#statusTimer);
    background(
      (this.#conn ?? Promise.resolve(undefined)).then((c) => c?.close()),
      "closing the thread host connection",
    );
    this.#changed.dispose();
    this.#pushed.dispose();
    this.#lost.dispose();
  }
}
