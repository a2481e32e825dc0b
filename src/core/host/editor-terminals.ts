/**
 * The thread host's agents' terminals, shown by the attached editors (#35 item 7): a hosted agent's
 * `terminal/create` runs in the host's own pty (so it outlives the window), and every client that serves terminals
 * for the session's folder is told of it (`terminal`), gets its output (`terminal_output`) and may type into it
 * (`terminal_input`). A client that attaches mid-run (a window that reloaded) gets the running terminals with their
 * recent output. Output to a client that falls behind is dropped and counted, never waited for; input comes only
 * from a client the terminal was shown to, while it still serves terminals. An exec run in a worktree is shown to the
 * clients whose folders hold its repository (the worktree is beside it, outside their folders).
 *
 * An agent's terminal login runs here too, so it needs someone to see it: with no client showing the session's
 * terminals the login fails at once (`loginUnseen`) instead of waiting in a pty nobody types into.
 */
import type { Duplex } from "node:stream";
import type { PathGuard } from "../acp/path-guard";
import { AcpThreadsError } from "../errors";
import type { TerminalHost, TerminalView } from "../ports";
import { background } from "../util/unexpected";
import { covers, offeredGuard } from "./editor-serve";
import type { HostPush } from "./protocol";
import type { HostExecInfo } from "./protocol-exec";
import type { ServeOffer, TerminalExitStatus } from "./protocol-serve";
import { repositoryOfFolders } from "./run-roots";

/** The latest output a running terminal keeps for a client shown it later, in characters. */
export const TERMINAL_RECENT_CHARS = 64 * 1024;
/** Output stops going to a client holding more unsent bytes than this (it is told how much it missed). */
export const TERMINAL_UNSENT_CAP = 1024 * 1024;

interface Running {
  readonly view: TerminalView;
  /** The session's folder: the clients serving it are shown the terminal. */
  readonly cwd: string;
  readonly label: string;
  /** An exec run the host owns (host-exec.ts), not an agent's terminal. */
  readonly exec?: HostExecInfo;
  /** The latest output, about TERMINAL_RECENT_CHARS of it. */
  readonly recent: string[];
  held: number;
  /** How it ended (once it has). */
  exit?: TerminalExitStatus;
  /** The clients shown it, each with the characters it was not sent since its last output. */
  readonly shown: Map<Duplex, { dropped: number }>;
}

export interface EditorTerminalsOptions {
  push(sock: Duplex, msg: HostPush): void;
  unsentCap?: number;
  /** Awaited before a client's offer walks the running terminals (tests hold it to order a race). */
  offerGate?: () => Promise<void>;
}

export class EditorTerminals {
  /** The clients serving terminals, each with a guard of its folders. */
  readonly #servers = new Map<Duplex, PathGuard>();
  readonly #running = new Map<string, Running>();
  /** Each client's offer still walking the running terminals (its `status` waits for it). */
  readonly #offering = new Map<Duplex, Promise<void>>();

  constructor(private readonly opts: EditorTerminalsOptions) {}

  /** The ids of the terminals that still run (the host's status lists them). */
  get running(): string[] {
    return [...this.#running.keys()];
  }

  /**
   * A client's `hello`: from now on it is shown the terminals of its folders (the running ones at once, in the
   * background: the hello's answer goes first), or none. Its `status` waits for this (`offered`).
   */
  offer(sock: Duplex, offer: ServeOffer | undefined): Promise<void> {
    const guard = offer?.terminals === true ? offeredGuard(offer) : undefined;
    if (guard) this.#servers.set(sock, guard);
    else this.#servers.delete(sock);
    const walk = this.#walk(sock, guard).finally(() => {
      if (this.#offering.get(sock) === walk) this.#offering.delete(sock);
    });
    this.#offering.set(sock, walk);
    return walk;
  }

  /**
   * Settles once the client's pending offer is done: every terminal running then was shown to it (when inside its
   * folders), so its end goes there. The host answers the client's `status` only after this, so a status never
   * lists a terminal the client was not shown and will not hear the end of.
   */
  offered(sock: Duplex): Promise<void> {
    return (this.#offering.get(sock) ?? Promise.resolve()).catch(() => undefined);
  }

  async #walk(sock: Duplex, guard: PathGuard | undefined): Promise<void> {
    await new Promise((r) => setImmediate(r)); // the hello's answer goes first
    await this.opts.offerGate?.();
    for (const t of [...this.#running.values()]) {
      const inside = !!guard && (await sees(guard, t));
      if (this.#servers.get(sock) !== guard) return; // another hello meanwhile: it decides
      if (t.exit) continue; // it ended while its folders were looked up: its end went to its clients then
      if (!inside) t.shown.delete(sock);
      else if (!t.shown.has(sock)) this.#show(sock, t);
    }
  }

  /** The client's connection closed. */
  gone(sock: Duplex): void {
    this.#servers.delete(sock);
    this.#offering.delete(sock);
    for (const t of this.#running.values()) t.shown.delete(sock);
  }

  /** A client's `terminal_input`: only a client the terminal is shown to may type into it or resize it. */
  input(sock: Duplex, term: string, data: unknown, size: unknown): void {
    const t = this.#running.get(term);
    if (!t?.shown.has(sock) || !this.#servers.has(sock))
      throw new AcpThreadsError("permission_denied", "that terminal is not running, or not shown to this client");
    if (typeof data === "string") t.view.write(data);
    const { cols, rows } = (size ?? {}) as { cols?: unknown; rows?: unknown };
    if (dimension(cols) && dimension(rows)) t.view.resize(cols, rows);
  }

  /** The terminal host of a session in `cwd` whose agent is `label`. */
  forSession(cwd: string, label: string): TerminalHost {
    return {
      onTerminalCreated: (view) => this.#created(view, cwd, label),
      loginUnseen: async () =>
        (await this.#serving(cwd)).length
          ? undefined
          : `${label} asks you to log in, in a terminal, and no VS Code window with ${cwd} open is attached to ` +
            `the thread host to show it: log in from a window or a terminal (start a thread of ${label} there), ` +
            "then run this thread again",
    };
  }

  /** An exec run the host owns (host-exec.ts): shown, streamed and typed into as an agent's terminal is. */
  showExec(view: TerminalView, exec: HostExecInfo): void {
    this.#created(view, exec.cwd, exec.title, exec);
  }

  /** The clients serving terminals of `cwd` (or, with `t`, shown `t`). */
  async #serving(cwd: string, t?: Running): Promise<Duplex[]> {
    const out: Duplex[] = [];
    for (const [sock, guard] of [...this.#servers])
      if ((await (t ? sees(guard, t) : covers(guard, cwd))) && this.#servers.get(sock) === guard) out.push(sock);
    return out;
  }

  #created(view: TerminalView, cwd: string, label: string, exec?: HostExecInfo): void {
    const t: Running = { view, cwd, label, ...(exec ? { exec } : {}), recent: [], held: 0, shown: new Map() };
    this.#running.set(view.terminalId, t);
    view.onOutput((data) => this.#output(t, data));
    view.onExit((exit) => {
      this.#running.delete(view.terminalId);
      t.exit = exit;
      this.#ended(t);
    });
    background(
      this.#serving(cwd, t).then((socks) => {
        for (const sock of socks) if (!t.shown.has(sock)) this.#show(sock, t);
        // it ended while its clients were looked up (a short run): they are shown it with its output, then its end
        if (t.exit) this.#ended(t);
      }),
      "showing a hosted terminal",
    );
  }

  #ended(t: Running): void {
    for (const [sock, { dropped }] of t.shown)
      this.opts.push(sock, {
        t: "terminal_output",
        term: t.view.terminalId,
        exit: t.exit!,
        ...(dropped ? { dropped } : {}),
      });
    t.shown.clear();
  }

  #show(sock: Duplex, t: Running): void {
    const { view } = t;
    const recent = t.recent.join("").slice(-TERMINAL_RECENT_CHARS);
    this.opts.push(sock, {
      t: "terminal",
      term: view.terminalId,
      sessionId: view.sessionId,
      label: t.label,
      commandLine: view.commandLine,
      cwd: view.cwd,
      ...(recent ? { recent } : {}),
      ...(t.exec ? { exec: t.exec } : {}),
    });
    t.shown.set(sock, { dropped: 0 });
  }

  #output(t: Running, data: string): void {
    t.recent.push(data);
    t.held += data.length;
    while (t.recent.length > 1 && t.held - t.recent[0].length >= TERMINAL_RECENT_CHARS)
      t.held -= t.recent.shift()!.length;
    const cap = this.opts.unsentCap ?? TERMINAL_UNSENT_CAP;
    for (const [sock, s] of t.shown) {
      if (sock.writableLength > cap) {
        s.dropped += data.length;
        continue;
      }
      const dropped = s.dropped ? { dropped: s.dropped } : {};
      this.opts.push(sock, { t: "terminal_output", term: t.view.terminalId, data, ...dropped });
      s.dropped = 0;
    }
  }
}

/**
 * Whether a client with `guard` is shown `t`: its folders hold the terminal's folder, or (an exec run in a worktree
 * the host took, host-exec.ts) the worktree's repository, as the window that made it beside the repository.
 */
async function sees(guard: PathGuard, t: Running): Promise<boolean> {
  if (await covers(guard, t.cwd, t.view.cwd)) return true;
  const repo = t.exec?.worktree?.repo;
  return !!repo && (await repositoryOfFolders(repo, guard.roots));
}

const dimension = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 0 && (n as number) <= 10_000;
