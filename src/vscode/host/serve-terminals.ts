/**
 * This window showing the thread host's agents' terminals (#35 item 7, src/core/host/editor-terminals.ts): each
 * `terminal` push becomes an integrated terminal through the window's own terminal view (terminal-host.ts: named
 * after the agent and the command, as its own sessions' terminals, the screen kept after exit), the
 * `terminal_output` pushes are its output and exit, and what the user types (and the panel's size) goes back as
 * `terminal_input`. The process runs in the host, so it outlives this window: a window that reloads is shown the
 * running terminals again, with their recent output.
 *
 * An exec run the host owns comes the same way (its `terminal` push has `exec`): its stream is this file's, and
 * hosted-exec.ts makes it the window's exec terminal and Live row (`onDidShowExec`).
 */
import * as vscode from "vscode";
import type { HostPush } from "../../core/host/protocol";
import type { HostExecInfo } from "../../core/host/protocol-exec";
import type { TerminalExitStatus } from "../../core/host/protocol-serve";
import type { TerminalView } from "../../core/ports";
import { background } from "../../core/util/unexpected";
import { PseudoterminalHost } from "../terminal-host";

type TerminalPush = Extract<HostPush, { t: "terminal" | "terminal_output" }>;

/**
 * Sends a `terminal_input` to the host. It rejects when the host refuses the input (the terminal is not running
 * there, or not shown to this window); it resolves when the connection went meanwhile (`lost` says so).
 */
export type TerminalInput = (
  term: string,
  input: { data: string } | { size: { cols: number; rows: number } },
) => Promise<void>;

interface Shown {
  readonly output: vscode.EventEmitter<string>;
  readonly exit: vscode.EventEmitter<TerminalExitStatus>;
  /** The `terminal` pushes heard when it was shown (`mark`). */
  readonly seen: number;
  /** The host refused what was typed, and nothing typed since went through (said once until then). */
  refused?: boolean;
}

const note = (text: string) => `\x1b[2m${text}\x1b[0m\n`;

export class HostedTerminals implements vscode.Disposable {
  /** The running terminals shown here, by the host's id. */
  readonly #shown = new Map<string, Shown>();
  /** The terminals shown so far (each `Shown.seen`). */
  #seq = 0;
  /** The agent of the terminal being created (the terminal view names it when it is created). */
  #naming = "agent";
  readonly #view = new PseudoterminalHost(() => this.#naming);
  readonly #execs = new vscode.EventEmitter<{ view: TerminalView; exec: HostExecInfo }>();
  /** An exec run of the host to show (its output and exit follow on `view`; the recent output first). */
  readonly onDidShowExec = this.#execs.event;

  constructor(private readonly input: TerminalInput) {}

  /** Their output and exit, by agent session id, as the window's own sessions' (a thread panel's tool cards). */
  get onOutput(): PseudoterminalHost["onOutput"] {
    return this.#view.onOutput;
  }

  /** Recent output of the ones of the agent session `sessionId` (a panel opened later shows it). */
  recentOutput(sessionId: string): ReturnType<PseudoterminalHost["recentOutput"]> {
    return this.#view.recentOutput(sessionId);
  }

  /** Terminals this window shows for the host (the host test reads it). */
  get held(): number {
    return this.#view.held;
  }

  /** A push of the host: a terminal to show, or a shown terminal's output or exit. */
  push(m: TerminalPush): void {
    if (m.t === "terminal") return this.#show(m);
    const shown = this.#shown.get(m.term);
    if (!shown) return;
    if (m.dropped) shown.output.fire(note(`[… ${m.dropped} characters not sent to this window …]`));
    if (m.data) shown.output.fire(m.data);
    if (m.exit) this.#end(m.term, shown, m.exit);
  }

  /** The connection to the host closed: the terminals run on there, and are shown again once reconnected. */
  lost(): void {
    for (const s of this.#shown.values()) s.output.fire(note("[the thread host's connection closed]"));
  }

  /** Terminals are shown here (running, as far as this window heard). */
  get showing(): boolean {
    return this.#shown.size > 0;
  }

  /** How many terminals were shown so far: read before asking the host's status, given to `reconcile`. */
  mark(): number {
    return this.#seq;
  }

  /**
   * The host's status (asked for at `asked`, a `mark`) lists the terminals in `running`: each shown here before it
   * that is not listed ended while this window was not connected (its end was never sent here). It ends here with
   * `why` in its terminal and `status` as its exit (an exec run's row says it; closing it stops nothing). One shown
   * after the status was asked for is the host's news, newer than the status: it stays.
   */
  reconcile(running: ReadonlySet<string>, asked: number, why: string, status: "interrupted" | "lost"): void {
    for (const [term, shown] of [...this.#shown]) {
      if (shown.seen > asked || running.has(term)) continue;
      shown.output.fire(note(`[${why}]`));
      this.#end(term, shown, { exitCode: null, signal: null, status });
    }
  }

  #end(term: string, shown: Shown, exit: TerminalExitStatus): void {
    this.#shown.delete(term);
    shown.exit.fire(exit);
    shown.output.dispose();
    shown.exit.dispose();
  }

  #show(m: Extract<TerminalPush, { t: "terminal" }>): void {
    const known = this.#shown.get(m.term);
    // shown here already (the connection came back): its output goes on in the same terminal
    if (known) return known.output.fire(note("[connected to the thread host again]"));
    const shown: Shown = { output: new vscode.EventEmitter(), exit: new vscode.EventEmitter(), seen: ++this.#seq };
    this.#shown.set(m.term, shown);
    const send = (input: Parameters<TerminalInput>[1]) =>
      background(this.#send(m.term, shown, input), "typing into a terminal of the thread host");
    const view: TerminalView = {
      terminalId: m.term,
      sessionId: m.sessionId,
      commandLine: m.commandLine,
      cwd: m.cwd,
      onOutput: (l) => shown.output.event(l),
      onExit: (l) => shown.exit.event(l),
      write: (data) => send({ data }),
      resize: (cols, rows) => send({ size: { cols, rows } }),
    };
    if (m.exec) this.#execs.fire({ view, exec: m.exec });
    else {
      this.#naming = m.label;
      this.#view.onTerminalCreated(view);
    }
    if (m.recent) shown.output.fire(m.recent);
  }

  /**
   * Types into (or resizes) a shown terminal. Typing the host refuses is said in the terminal, once until typing
   * goes through again; a refused resize loses nothing the user typed and is not said.
   */
  async #send(term: string, shown: Shown, input: Parameters<TerminalInput>[1]): Promise<void> {
    const typed = "data" in input;
    try {
      await this.input(term, input);
      if (typed) shown.refused = false;
    } catch (err) {
      if (!typed || shown.refused || this.#shown.get(term) !== shown) return;
      shown.refused = true;
      const why = err instanceof Error ? err.message : String(err);
      shown.output.fire(note(`[what you typed was not sent: the thread host refused it (${why})]`));
    }
  }

  dispose(): void {
    for (const s of this.#shown.values()) {
      s.output.dispose();
      s.exit.dispose();
    }
    this.#shown.clear();
    this.#view.dispose();
    this.#execs.dispose();
  }
}
