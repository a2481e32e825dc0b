/**
 * The host's agents' files served by an attached editor (#35 item 7): a client that says in `hello` it serves fs
 * for its folders (protocol.ts `ServeOffer`) is asked for the reads and writes of every session whose folder is
 * inside them, so the agent reads the editor's unsaved text and its writes take the editor's own path (open
 * buffers, merge of concurrent edits). The engine calls these files only after the session's path guard and
 * permission policy (fs-handler.ts): nothing outside the session's roots, nothing unapproved, is ever asked.
 *
 * The disk (today's behaviour) does what no client served: none serves the folder, the client went mid-request,
 * did not answer in time, or answered that it failed. A refusal (outside its folders, the user declined) is the
 * agent's error and never falls back: the disk must not do what the editor refused.
 *
 * One write, never two: a client still working on an ask says so (`serving`, every SERVE_ALIVE_MS), and each
 * restarts the wait, so a write waiting on the user's merge view for as long as the user takes is the client's
 * alone. A client that neither answers nor says so within the wait is dropped before the disk takes its write: its
 * connection closes, and a client whose connection closed no longer applies what it was asked (host-link.ts,
 * serve-answer.ts). A read that times out falls back without that: a late read answer changes nothing.
 */
import type { Duplex } from "node:stream";
import { isAbsolute } from "node:path";
import { DiskWorkspaceFiles } from "../acp/disk-workspace-files";
import type { LineRange } from "../acp/line-reader";
import { PathGuard } from "../acp/path-guard";
import { AcpThreadsError } from "../errors";
import type { Logger } from "../log";
import type { WorkspaceFiles } from "../ports";
import { MAX_SERVED_TEXT_BYTES, type HostPush } from "./protocol";
import type { ServeAnswer, ServeOffer, ServeOp } from "./protocol-serve";

/** A guard of the folders a client offers (absolute paths only); undefined: it offers none. */
export function offeredGuard(offer: ServeOffer | undefined): PathGuard | undefined {
  const roots = Array.isArray(offer?.roots) ? offer.roots.filter((r) => typeof r === "string" && isAbsolute(r)) : [];
  return roots.length ? new PathGuard(roots) : undefined;
}

/** All of `paths` are inside the guard's folders (real paths, the platform's case rules). */
export const covers = (guard: PathGuard, ...paths: string[]): Promise<boolean> =>
  Promise.all(paths.map((p) => guard.check(p))).then(
    () => true,
    () => false,
  );

/**
 * How long the host waits for a client's answer, or for its next `serving` (so a write may wait on the user, an
 * editor's merge view, as long as the client says it still works on it).
 */
export const SERVE_TIMEOUT_MS = { read: 15_000, write: 120_000 };

export interface EditorServeOptions {
  push(sock: Duplex, msg: HostPush): void;
  logger: Logger;
  timeoutMs?: { read: number; write: number };
}

type Served = { content?: string | null } | undefined;

export class EditorServe {
  #next = 1;
  /** The serving clients, each with a guard of its folders. */
  readonly #servers = new Map<Duplex, PathGuard>();
  readonly #asks = new Map<number, { sock: Duplex; settle: (a: ServeAnswer | undefined) => void; alive: () => void }>();
  readonly #disk = new DiskWorkspaceFiles();

  constructor(private readonly opts: EditorServeOptions) {}

  /** A client's `hello`: what it serves from now on (none: nothing). */
  offer(sock: Duplex, offer: ServeOffer | undefined): void {
    const guard = offer?.fs === true ? offeredGuard(offer) : undefined;
    if (guard) this.#servers.set(sock, guard);
    else this.#servers.delete(sock);
  }

  /** The client's connection closed: what it was asked falls back to the disk. */
  gone(sock: Duplex): void {
    this.#servers.delete(sock);
    for (const a of [...this.#asks.values()]) if (a.sock === sock) a.settle(undefined);
  }

  /** A client's `served`; only the client asked can answer. */
  answer(sock: Duplex, ask: number, answer: ServeAnswer): void {
    const a = this.#asks.get(ask);
    if (a?.sock === sock) a.settle(answer && typeof answer === "object" ? answer : { failed: "not an answer" });
  }

  /** A client's `serving`: the ask's wait starts again; false when the host no longer waits for it. */
  alive(sock: Duplex, ask: number): boolean {
    const a = this.#asks.get(ask);
    if (a?.sock !== sock) return false;
    a.alive();
    return true;
  }

  /** The files of a session in `cwd`: each effect asks the client serving that folder, else the disk. */
  files(cwd: string): WorkspaceFiles {
    return {
      readText: async (path) => {
        const r = await this.#ask(cwd, { kind: "read", path });
        return r ? (r.content ?? undefined) : this.#disk.readText(path);
      },
      readLines: async (path, range: LineRange) => {
        const r = await this.#ask(cwd, { kind: "read", path, range });
        return r ? (r.content ?? undefined) : this.#disk.readLines(path, range);
      },
      writeText: async (path, content, lastRead) => {
        const op: ServeOp = { kind: "write", path, content, ...(lastRead !== undefined ? { lastRead } : {}) };
        if (!(await this.#ask(cwd, op))) await this.#disk.writeText(path, content, lastRead);
      },
    };
  }

  async #serverFor(cwd: string, path: string): Promise<Duplex | undefined> {
    for (const [sock, guard] of this.#servers) if ((await covers(guard, cwd, path)) && !sock.destroyed) return sock;
    return undefined;
  }

  /** The serving client's answer; undefined: nobody served it (the disk does). Throws the client's refusal. */
  async #ask(cwd: string, op: ServeOp): Promise<Served> {
    const sock = await this.#serverFor(cwd, op.path);
    if (!sock) return undefined;
    if (op.kind === "write" && Buffer.byteLength(JSON.stringify(op.content)) > MAX_SERVED_TEXT_BYTES)
      return this.#fellBack(op, "too large for a message");
    const ask = this.#next++;
    const timeoutMs = (this.opts.timeoutMs ?? SERVE_TIMEOUT_MS)[op.kind];
    const answer = await new Promise<ServeAnswer | undefined>((resolve) => {
      const timedOut = () => {
        settle(undefined);
        // a write the disk takes now must never be applied by the client later: it is dropped (it reattaches)
        if (op.kind === "write") sock.destroy();
      };
      let timer = setTimeout(timedOut, timeoutMs);
      const settle = (a: ServeAnswer | undefined) => {
        clearTimeout(timer);
        this.#asks.delete(ask);
        resolve(a);
      };
      const alive = () => {
        clearTimeout(timer);
        timer = setTimeout(timedOut, timeoutMs);
      };
      this.#asks.set(ask, { sock, settle, alive });
      this.opts.push(sock, { t: "serve", ask, op });
      if (sock.destroyed) settle(undefined); // it went meanwhile: `gone` has run already
    });
    if (answer && "refused" in answer) {
      const code = answer.code === "path_outside_workspace" ? answer.code : "permission_denied";
      throw new AcpThreadsError(code, String(answer.refused));
    }
    if (answer && "done" in answer && answer.done === true) {
      if (op.kind === "write") return {};
      const { content } = answer;
      if (content === null || typeof content === "string") return { content };
    }
    return this.#fellBack(op, !answer ? "no answer" : "failed" in answer ? String(answer.failed) : "a bad answer");
  }

  #fellBack(op: ServeOp, why: string): undefined {
    this.opts.logger.info(`the editor did not serve the ${op.kind} of ${op.path} (${why}): the host uses the disk`);
    return undefined;
  }
}
