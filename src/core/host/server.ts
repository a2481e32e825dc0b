/**
 * The thread host (#35): one process per user, data home and version that owns live agent sessions; the CLI (and
 * next the editor) are its clients over the socket door.ts places, and a client in its own process over an
 * in-process connection (`connect`; a host made `inProcess` has no socket at all). It runs what clients ask (`run`,
 * through the runner its entry point gives: hosted-runner.ts with the CLI's ports), feeds every attached client its
 * threads' records (hosted-thread.ts), lets any client prompt, steer, cancel or answer, and leaves `idleMs` after
 * the last session and the last client are gone (a host that listens), or on `stop`.
 *
 * A client that falls behind (more than CLIENT_BUFFER_CAP bytes unsent) is disconnected, never waited for: it
 * reattaches from its cursor. Nothing a client sends can make the host buffer more than MAX_MESSAGE_BYTES of it.
 */
import { unlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import type { Duplex } from "node:stream";
import { errorMessage } from "../errors";
import { tryAcquireLock } from "../platform/file-lock";
import { isPosix } from "../platform/host";
import { background } from "../util/unexpected";
import { hostPlace, preparePlace, type HostPlace } from "./door";
import { inProcessPair } from "./in-process";
import { writeDoorKey } from "../store/door-key";
import { admit, type Client } from "./host-client";
import { EditorServe } from "./editor-serve";
import { assertRootsOffered, assertWorktreeOffered } from "./run-roots";
import { EditorTerminals } from "./editor-terminals";
import { HostExecs } from "./host-exec";
import { HostEngine } from "./host-engine";
import { HostBestOfs } from "./host-best-of";
import type { HostedThread } from "./hosted-thread";
import { isThreadRequest, threadRequest } from "./host-requests";
import { clearStaleSocket, listenPrivate } from "./listen";
import { SessionRows, sessionRow } from "./session-rows";
import { CLIENT_BUFFER_CAP, DEFAULT_IDLE_MS, startRun, type RunHost } from "./host-run";
import {
  HOST_PROTOCOL,
  type HostEvent,
  type HostPush,
  type HostReply,
  type HostRequest,
  type HostStatus,
} from "./protocol";
import { heldThread, refusalReply, refuseHeld } from "./protocol-refusal";
import { assertRunTimers } from "./timer-fields";
import { stopRefusal } from "./stop-refusal";
import type { HostOptions } from "./run-control";
import { readLines, send } from "./wire";

export { CLIENT_BUFFER_CAP, DEFAULT_IDLE_MS };
export type { HostRunner } from "./run-control";
export const HARD_BUFFER_CAP = 4 * CLIENT_BUFFER_CAP;
/** How long `stop --force` waits for the runs it interrupted to close their sessions. */
export const STOP_GRACE_MS = 10_000;

export class ThreadHost {
  readonly #server: Server;
  readonly #clients = new Map<Duplex, Client>();
  readonly #threads = new Map<string, HostedThread>();
  /** Each run's abort, and its thread once open. */
  readonly #runs = new Map<AbortController, { thread?: HostedThread }>();
  readonly #events = new Set<Duplex>();
  readonly #started = Date.now();
  #idle: NodeJS.Timeout | undefined;
  #release: (() => void) | undefined;
  /** It serves: it listens on its socket (listen) or was made in process (inProcess), and has not stopped. */
  #live = false;
  #stopping = false;
  #closed!: () => void;
  /** The key clients must give (store/door-key.ts), written as the host takes its socket. */
  #key: string | undefined;
  readonly #serve: EditorServe;
  readonly #terminals: EditorTerminals;
  readonly #execs: HostExecs;
  readonly #engine: HostEngine;
  readonly #bestOfs: HostBestOfs;
  /** The rows told to the event listeners, each before what is announced of its thread. */
  readonly #rows = new SessionRows((msg) => {
    for (const s of this.#events) this.#reply(s, msg);
  });
  /** What of the host its runs reach (host-run.ts). */
  readonly #runHost: RunHost;
  /** Resolves once the host has shut down (idle, `stop`). */
  readonly closed = new Promise<void>((r) => (this.#closed = r));

  constructor(private readonly opts: HostOptions) {
    this.#server = createServer((sock) => this.#connect(sock));
    this.#terminals = new EditorTerminals({
      push: (sock, msg) => void this.#reply(sock, msg),
      ...(opts.offerGate ? { offerGate: opts.offerGate } : {}),
    });
    this.#serve = new EditorServe({
      push: (sock, msg) => this.#reply(sock, msg),
      logger: opts.logger,
      ...(opts.serveTimeoutMs ? { timeoutMs: opts.serveTimeoutMs } : {}),
    });
    this.#execs = new HostExecs({ home: opts.home, logger: opts.logger, terminals: this.#terminals });
    this.#engine = new HostEngine({
      home: opts.home,
      logger: opts.logger,
      ...(opts.engineScripts ? { engine: opts.engineScripts } : {}),
    });
    this.#bestOfs = new HostBestOfs(
      opts,
      (id) => this.#threads.has(id),
      () => this.#armIdle(),
    );
    this.#runHost = {
      opts,
      runs: this.#runs,
      threads: this.#threads,
      serve: this.#serve,
      terminals: this.#terminals,
      rows: this.#rows,
      reply: (sock, msg) => this.#reply(sock, msg),
      announce: (event) => this.announce(event),
      tell: (msg, also) => this.#tell(msg, also),
      armIdle: () => this.#armIdle(),
    };
  }

  /**
   * A host that serves only the clients of this process (`connect`): no socket, lock or key, and no leaving when
   * idle (it serves until its owner calls stop(); a host that listens leaves when idle). `place` gives its version.
   */
  static inProcess(opts: Omit<HostOptions, "place"> & { place?: HostPlace }): ThreadHost {
    const host = new ThreadHost({ ...opts, place: opts.place ?? hostPlace(opts.home) });
    host.#live = true;
    return host;
  }

  /**
   * A client in this process: the client's end of a connection served as a socket's is (the same requests, pushes
   * and per-client buffer caps), let in without the door's key. The key proves a process at the socket is this
   * user's; the end returned here is reached by no other process (it has no name or path), only by code in this
   * one, which holds the host itself and could read its key anyway.
   */
  connect(): Duplex {
    if (!this.#live || this.#stopping) throw new Error("the thread host does not serve (stopped, or not started)");
    const [own, client] = inProcessPair();
    this.#connect(own, true);
    return client;
  }

  /** Takes the host's lock and its socket; false when another host of this version already serves. */
  async listen(): Promise<boolean> {
    const { place, home } = this.opts;
    preparePlace(home, place);
    const lock = tryAcquireLock(place.hostLock, { label: `acp-threads host ${place.version}` });
    if (!lock.ok) return false;
    this.#release = lock.release;
    try {
      if (!(await clearStaleSocket(place.socket))) throw new Error("another host answers on the socket");
      this.#key = writeDoorKey(place.key);
      await listenPrivate(this.#server, place.socket);
    } catch (err) {
      this.#release();
      throw err;
    }
    this.#live = true;
    this.#armIdle();
    return true;
  }

  status(): HostStatus {
    return {
      pid: process.pid,
      version: this.opts.place.version,
      protocol: HOST_PROTOCOL,
      uptimeMs: Date.now() - this.#started,
      clients: this.#clients.size,
      maxUnsent: Math.max(0, ...[...this.#clients.keys()].map((s) => s.writableLength)),
      socket: this.#release ? this.opts.place.socket : "(in process)",
      sessions: [...this.#threads.values()].map(sessionRow),
      ...(this.#execs.running.length ? { execs: this.#execs.running } : {}),
      ...(this.#terminals.running.length ? { terminals: this.#terminals.running } : {}),
    };
  }

  /** A connection: one at the socket, or (`keyed`) one made in this process (connect). */
  #connect(sock: Duplex, keyed = false): void {
    const client: Client = { name: "a client", threads: new Set(), counts: false, keyed };
    this.#clients.set(sock, client);
    sock.on("error", () => {});
    sock.on("close", () => {
      this.#clients.delete(sock);
      this.#events.delete(sock);
      this.#serve.gone(sock);
      this.#terminals.gone(sock);
      this.#engine.closed(sock);
      for (const t of client.threads) this.#detach(t, sock);
      this.#armIdle();
    });
    readLines(sock, (msg) => {
      const req = msg as HostRequest;
      this.#handle(sock, client, req).then(
        (reply) => {
          if (reply) this.#reply(sock, reply);
          if (reply?.t === "error" && reply.code === "no_key") sock.end();
        },
        (err: unknown) => {
          this.#reply(sock, { t: "error", id: req.id, message: errorMessage(err), ...refusalReply(err) });
        },
      );
    });
  }

  /**
   * Records stop going to a client over CLIENT_BUFFER_CAP (it catches up from the file once drained); one that
   * lets even the small messages pile up past HARD_BUFFER_CAP is let go (it reattaches from its cursor).
   */
  #reply(sock: Duplex, msg: HostReply | HostPush): number {
    if (sock.writableEnded) return 0; // let go (no_key): nothing more
    const held = send(sock, msg);
    if (held > HARD_BUFFER_CAP) sock.destroy();
    return held;
  }

  /** A client stops following the thread: its row counts one client less. */
  #detach(t: HostedThread, sock: Duplex): void {
    t.detach(sock);
    this.#rows.changed(t);
  }

  async #handle(sock: Duplex, client: Client, req: HostRequest): Promise<HostReply | undefined> {
    const { id } = req;
    // until a hello proves the key: the door's answer, or (a sandboxed agent, say) one refusal and it is let go
    const door = client.keyed ? undefined : admit(this.#key, client, req);
    if (door) return door; // after it, a no_key refusal ends the connection (#connect)
    switch (req.t) {
      case "hello":
        client.name = req.client.slice(0, 200);
        client.counts = req.watching !== true;
        this.#armIdle();
        if (req.protocol !== HOST_PROTOCOL)
          return { t: "error", id, message: `host protocol ${HOST_PROTOCOL}, client ${req.protocol}` };
        client.offer = req.serves;
        this.#serve.offer(sock, req.serves);
        background(this.#terminals.offer(sock, req.serves), "showing the host's terminals to a client");
        return { t: "hello", id, protocol: HOST_PROTOCOL, version: this.opts.place.version, pid: process.pid };
      case "status":
        // after its pending offer: every terminal it lists was shown to this client, which hears its end
        await this.#terminals.offered(sock);
        return { t: "status", id, status: this.status() };
      case "stop": {
        const idle = [...this.#threads.values()].filter((t) => t.state === "idle").length;
        const work = {
          sessions: this.#runs.size - idle,
          execs: this.#execs.running.length,
          bestOfs: this.#bestOfs.running,
        };
        const refused = req.force ? undefined : stopRefusal(work);
        if (refused) return { t: "error", id, message: refused };
        this.#reply(sock, { t: "ok", id });
        background(this.stop(), "stopping the thread host");
        return undefined;
      }
      case "run":
        refuseHeld(this.#threads, req.run.thread);
        assertRunTimers(req.run);
        await assertRootsOffered(req.run.roots, client.offer);
        await assertWorktreeOffered(req.run, client.offer);
        return { t: "started", id, threadId: await startRun(this.#runHost, req.run) };
      case "attach": {
        const t = this.#threads.get(req.threadId);
        if (!t) return { t: "attached", id, threadId: req.threadId, live: false };
        // the reply first: records and a pending question follow it, in order
        this.#reply(sock, { t: "attached", id, threadId: req.threadId, live: t.state !== "ended" });
        client.threads.add(t);
        await t.attach(sock, Math.max(0, req.from | 0), req.elicits === true);
        this.#rows.changed(t);
        this.#armIdle(); // an idle run with a client attached keeps the host
        return undefined;
      }
      case "detach":
        for (const t of client.threads) if (t.threadId === req.threadId) this.#detach(t, sock);
        this.#armIdle();
        return { t: "ok", id };
      case "events":
        this.#events.add(sock);
        return { t: "ok", id };
      case "served":
        this.#serve.answer(sock, req.ask, req.answer);
        return { t: "ok", id };
      case "terminal_input":
        this.#terminals.input(sock, req.term, req.data, req.size);
        return { t: "ok", id };
      case "exec_start":
      case "exec_stop":
      case "exec_input":
        return await this.#execs.request(req, client.offer, () => this.#armIdle());
      case "engine":
      case "engine_cancel":
        return this.#engine.request(req, sock, (msg) => this.#reply(sock, msg));
      case "best_of":
        return await this.#bestOfs.request(req, client.offer);
      case "serving":
        if (!this.#serve.alive(sock, req.ask)) throw new Error(`the host no longer waits for ask ${req.ask}`);
        return { t: "ok", id };
      default:
        if (isThreadRequest(req))
          return threadRequest(heldThread(this.#threads, req.threadId), req, { sock, name: client.name });
        return { t: "error", id: (req as { id?: number }).id ?? 0, message: "unknown request" };
    }
  }

  /** An event to the listeners, its thread's row first when it changed (a `turn_ended` after the row says idle). */
  announce(event: HostEvent): void {
    const t = this.#threads.get(event.threadId);
    if (t) this.#rows.changed(t);
    for (const s of this.#events) this.#reply(s, { t: "event", event });
    this.#bestOfs.heard(event);
  }

  /** A push to the event listeners and `also` (a thread's clients), once to each; a watchdog's row goes first. */
  #tell(msg: HostPush, also: Iterable<Duplex> = []): void {
    const t = msg.t === "watchdog" ? this.#threads.get(msg.threadId) : undefined;
    if (t) this.#rows.changed(t);
    for (const s of new Set([...this.#events, ...also])) this.#reply(s, msg);
  }

  /**
   * Counts down to leaving while no run (but those waiting idle with no client attached) and no client that counts
   * is left; a countdown under way goes on (a watching client coming and going does not restart it).
   */
  #armIdle(): void {
    const work = this.#execs.running.length + this.#bestOfs.running; // exec runs, Best of N being finished
    const running = work > 0 || [...this.#runs.values()].some((r) => !r.thread?.unattended);
    const held = running || [...this.#clients.values()].some((c) => c.counts);
    // stopping: no new idle timer while stop() waits (one kept a stopped host alive its idle time: the suite hung);
    // not listening (in process): its owner stops it
    if (held || !this.#release || this.#stopping) {
      clearTimeout(this.#idle);
      this.#idle = undefined;
      return;
    }
    if (this.#idle) return;
    this.#idle = setTimeout(
      () => background(this.stop(), "leaving the idle thread host"),
      this.opts.idleMs ?? DEFAULT_IDLE_MS,
    );
  }

  /**
   * Interrupts the runs (they close their sessions; one waiting idle for a prompt is stopped as `stop_thread` does),
   * closes every connection, leaves.
   */
  async stop(): Promise<void> {
    if (!this.#live || this.#stopping) return;
    this.#stopping = true;
    clearTimeout(this.#idle);
    for (const [abort, { thread }] of this.#runs)
      if (thread?.state === "idle" && thread.control.stop) thread.control.stop();
      else abort.abort();
    const deadline = Date.now() + STOP_GRACE_MS;
    await Promise.all([this.#execs.shutdown(), this.#bestOfs.shutdown(), this.#engine.close()]);
    while (this.#runs.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const listening = this.#release;
    if (listening) this.#server.close();
    for (const sock of this.#clients.keys()) sock.destroy();
    try {
      if (listening && isPosix()) unlinkSync(this.opts.place.socket);
    } catch {
      // closing the server removed it already
    }
    listening?.();
    this.#release = undefined;
    this.#live = false;
    this.opts.logger.info(`thread host ${process.pid} leaves`);
    this.#closed();
  }
}
