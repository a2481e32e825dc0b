/**
 * A client's side of the thread host: `connectHost` reaches the host of this version for the data home, starting it
 * when none answers (`start`): under the start lock (two racing clients start one host), the host is spawned
 * detached in its own process group and session (`process.execPath <script> host serve`, its stderr in the
 * host's log), and the client waits for its socket.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { Engine, EngineCallOptions, EngineProgress, EngineReplies, EngineRequest } from "../engine/requests";
import { AcpThreadsError, ERROR_CODES } from "../errors";
import { waitForLock } from "../platform/file-lock";
import { hostPlace, preparePlace, type HostPlace } from "./door";
import { doorNonce, doorProof, keyMatches, readDoorKey } from "../store/door-key";
import { HOST_PROTOCOL, type HostMessage, type HostPush, type HostReply, type HostRequest } from "./protocol";
import { HostRefusal } from "./protocol-refusal";
import { type ServeOffer } from "./protocol-serve";
import { readLines, send } from "./wire";

export const START_TIMEOUT_MS = 15_000;

/** Pushes held for a connection's first listener (protocol.ts `HostPush`). */
const EARLY_PUSHES = 1024;

type Body<T> = T extends unknown ? Omit<T, "id"> : never;

export class HostConnection {
  #next = 1;
  readonly #waiting = new Map<number, (r: HostReply) => void>();
  readonly #push = new Set<(m: HostPush) => void>();
  /** The progress listeners of the engine requests waiting, by request id. */
  readonly #progress = new Map<number, (p: EngineProgress) => void>();
  /**
   * Pushes that came before the first listener (a serving client's terminals follow its hello's answer at once,
   * maybe in the same read): the first listener gets them. At most EARLY_PUSHES; undefined once delivered.
   */
  #early: HostPush[] | undefined = [];
  #closed = false;
  readonly #closeListeners = new Set<() => void>();

  constructor(readonly sock: Duplex) {
    sock.on("error", () => {});
    readLines(sock, (raw) => {
      const m = raw as HostMessage;
      if (m.t === "engine_progress") this.#progress.get(m.call)?.(m.progress);
      else if ("id" in m && typeof m.id === "number") {
        const w = this.#waiting.get(m.id);
        this.#waiting.delete(m.id);
        w?.(m);
      } else if (this.#early && !this.#push.size) {
        if (this.#early.length < EARLY_PUSHES) this.#early.push(m as HostPush);
      } else for (const fn of this.#push) fn(m as HostPush);
    });
    sock.on("close", () => {
      this.#closed = true;
      for (const w of this.#waiting.values())
        w({ t: "error", id: 0, message: "the thread host closed the connection" });
      this.#waiting.clear();
      for (const fn of this.#closeListeners) fn();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sends a request; resolves with its reply (an `error` reply rejects, its message for the user; one with a code
   * as a HostRefusal).
   */
  async request(body: Body<HostRequest>): Promise<HostReply> {
    if (this.#closed) throw new AcpThreadsError("protocol", "the thread host closed the connection");
    const id = this.#next++;
    const reply = new Promise<HostReply>((r) => this.#waiting.set(id, r));
    send(this.sock, { ...body, id });
    const r = await reply;
    if (r.t !== "error") return r;
    if (r.code) throw new HostRefusal(r.code, r.message, r.answered, r.pending, r.engine);
    const code = r.engine && ERROR_CODES.includes(r.engine.code) ? r.engine.code : "protocol";
    throw new AcpThreadsError(code, r.message, r.engine?.details);
  }

  /**
   * An engine request (core/engine/requests.ts) served by the host: the reply a local call gives, an engine error
   * thrown as the same `AcpThreadsError` (its code kept), progress to `onProgress` as it comes.
   */
  async engine<R extends EngineRequest>(req: R, opts: EngineCallOptions = {}): Promise<EngineReplies[R["op"]]> {
    if (opts.signal?.aborted)
      throw new AcpThreadsError("interrupted", "the engine request was cancelled before it started");
    const id = this.#next; // the id `request` gives it (taken before its first await)
    if (opts.onProgress) this.#progress.set(id, opts.onProgress);
    const cancel = () => void this.request({ t: "engine_cancel", call: id }).catch(() => undefined);
    opts.signal?.addEventListener("abort", cancel, { once: true });
    try {
      const r = await this.request({ t: "engine", req, ...(opts.onProgress ? { progress: true } : {}) });
      if (r.t !== "engine")
        throw new AcpThreadsError("protocol", `the thread host answered '${r.t}' to an engine request`);
      return r.reply as EngineReplies[R["op"]];
    } finally {
      opts.signal?.removeEventListener("abort", cancel);
      this.#progress.delete(id);
    }
  }

  /** This connection as an `Engine`: the same calls as `localEngine`'s, served by the host. */
  get asEngine(): Engine {
    return { call: (req, opts) => this.engine(req, opts) };
  }

  onPush(fn: (m: HostPush) => void): () => void {
    this.#push.add(fn);
    const early = this.#early ?? [];
    this.#early = undefined;
    for (const m of early) fn(m);
    return () => this.#push.delete(fn);
  }

  onClose(fn: () => void): () => void {
    this.#closeListeners.add(fn);
    return () => this.#closeListeners.delete(fn);
  }

  close(): void {
    this.sock.end();
    this.sock.destroy();
  }
}

function tryConnect(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const sock = connect(path);
    sock.once("connect", () => {
      sock.removeAllListeners("error");
      resolve(sock);
    });
    sock.once("error", () => resolve(undefined));
  });
}

export interface ConnectOptions {
  home: string;
  /** Who this client is, for other clients ("acp-threads answer (pid 12)"). */
  client: string;
  /**
   * Start the host when none answers: the CLI script whose `host serve` runs it, with `args` after it (the
   * editor's `--idle-minutes N`).
   */
  start?: { script: string; env?: NodeJS.ProcessEnv; args?: string[] };
  /** This client only looks on: it does not keep an idle host alive (protocol.ts `hello`). */
  watching?: boolean;
  /** What this client serves the host's agents (an editor: its folders' files). */
  serves?: ServeOffer;
  place?: HostPlace;
}

/** Connects to the host (undefined when none runs and `start` is not given); says hello. */
export async function connectHost(o: ConnectOptions): Promise<HostConnection | undefined> {
  const place = o.place ?? hostPlace(o.home);
  const sock = await reach(o, place);
  if (!sock) return undefined;
  const conn = new HostConnection(sock);
  const key = await readDoorKey(place.key);
  const proof = key === undefined ? undefined : await proveDoor(conn, key, place);
  return await hello(conn, o, proof);
}

/** What a client in the host's own process says in its hello. */
export type InProcessOptions = Pick<ConnectOptions, "client" | "watching" | "serves">;

/**
 * A client of a host in this process over `end`, the client's end its `connect()` gave (server.ts): no door (that
 * end is let in without the key), the same hello and the same connection as over the socket.
 */
export function connectInProcess(end: Duplex, o: InProcessOptions): Promise<HostConnection> {
  return hello(new HostConnection(end), o);
}

async function hello(conn: HostConnection, o: InProcessOptions, proof?: string): Promise<HostConnection> {
  await conn.request({
    t: "hello",
    protocol: HOST_PROTOCOL,
    client: o.client,
    ...(proof ? { proof } : {}),
    ...(o.watching ? { watching: true } : {}),
    ...(o.serves ? { serves: o.serves } : {}),
  });
  return conn;
}

/**
 * The door's handshake (store/door-key.ts): the host proves it holds the key before this client says anything
 * else; what answers at the door without proving it is not the thread host, and is told nothing.
 */
async function proveDoor(conn: HostConnection, key: string, place: HostPlace): Promise<string> {
  const nonce = doorNonce();
  const r = await conn.request({ t: "door", nonce }).catch(() => undefined);
  if (r?.t !== "door" || typeof r.nonce !== "string" || !keyMatches(doorProof(key, "host", nonce, r.nonce), r.proof)) {
    conn.close();
    throw new AcpThreadsError(
      "unsafe_path",
      `what answers at the thread host's door (${place.socket}) did not prove it holds the host's key (${place.key}): it is not this user's thread host, so nothing was sent to it`,
    );
  }
  return doorProof(key, "client", nonce, r.nonce);
}

async function reach(o: ConnectOptions, place: HostPlace): Promise<Socket | undefined> {
  preparePlace(o.home, place); // never talk through a folder someone else could have planted
  const first = await tryConnect(place.socket);
  if (first || !o.start) return first;
  const release = await waitForLock(place.startLock, { label: "starting the thread host", pollMs: 50 });
  try {
    const again = await tryConnect(place.socket);
    if (again) return again;
    // A host that leaves at once found the host lock held: by a host that just died, say (SIGKILLed, its pid not
    // yet reaped, so its lock still looks live for a moment). Started again, a few times with a growing pause,
    // until one serves or the time is up: a later one finds the stale lock and takes it.
    let host = spawnHost(o.start, place);
    let respawns = 0;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const sock = await tryConnect(place.socket);
      if (sock) return sock;
      if (host.exited && respawns < MAX_RESPAWNS) {
        await sleep(100 * 2 ** respawns++);
        host = spawnHost(o.start, place);
      } else await sleep(25);
    }
    throw new AcpThreadsError("timeout", `the thread host did not start in time; see ${place.log}`);
  } finally {
    release();
  }
}

/** Starts of a host that left at once, after the first (100 ms … 1.6 s apart). */
const MAX_RESPAWNS = 5;

function spawnHost(start: NonNullable<ConnectOptions["start"]>, place: HostPlace): { exited: boolean } {
  const log = openSync(place.log, "a", 0o600);
  const seen = { exited: false };
  try {
    const child = spawn(process.execPath, [start.script, "host", "serve", ...(start.args ?? [])], {
      detached: true,
      stdio: ["ignore", "ignore", log],
      env: { ...(start.env ?? process.env), ELECTRON_RUN_AS_NODE: "1" },
      cwd: place.dir,
    });
    child.on("error", () => (seen.exited = true));
    child.on("exit", () => (seen.exited = true));
    child.unref();
  } finally {
    closeSync(log);
  }
  return seen;
}
