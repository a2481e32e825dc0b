/**
 * `TerminalHost` backed by Pseudoterminals: one integrated terminal per `terminal/create`, named after the
 * session and the command. Output stays visible after the process exits or is released; typing reaches
 * the process. Output is also fired on `onOutput` so the thread panel can show `terminal` tool content.
 */
import * as vscode from "vscode";
import type { TerminalHost, TerminalView } from "../core/ports";

/** xterm needs CRLF; agents' processes mostly write bare LF. */
export const toTerminalText = (s: string) => s.replace(/\r?\n/g, "\r\n");

export interface PtySource {
  onOutput(listener: (data: string) => void): vscode.Disposable;
  onExit(listener: (status: { exitCode: number | null; signal: string | null }) => void): vscode.Disposable;
  write(data: string): void;
  resize?(cols: number, rows: number): void;
}

/**
 * Output held for a terminal VS Code has not opened yet, in characters: the newest are kept, so a terminal nobody
 * opens (a long day of agent commands) does not hold its process's whole output.
 */
export const PENDING_CAP = 256 * 1024;

/** A Pseudoterminal that buffers output until VS Code opens it and keeps the screen after exit. */
export function createPty(
  source: PtySource,
  opts: { banner?: string } = {},
): vscode.Pseudoterminal & vscode.Disposable {
  const write = new vscode.EventEmitter<string>();
  let opened = false;
  const banner = opts.banner ? `\x1b[2m${opts.banner}\x1b[0m\r\n` : "";
  const pending: string[] = [];
  let held = 0;
  let dropped = 0;
  const hold = (s: string) => {
    const kept = s.length > PENDING_CAP ? s.slice(-PENDING_CAP) : s;
    dropped += s.length - kept.length;
    pending.push(kept);
    held += kept.length;
    while (held > PENDING_CAP) {
      const old = pending.shift()!;
      held -= old.length;
      dropped += old.length;
    }
  };
  const emit = (s: string) => (opened ? write.fire(s) : hold(s));
  let exited = false;
  // VS Code keeps a terminal's pty while it lists the terminal, disposed or not: once disposed the pty lets go of
  // its source (the engine's terminal and what that reaches), so only this closure's own state stays (#24)
  let src: PtySource | undefined = source;
  // A pty that already exited throws on resize (EBADF); the terminal panel resizes whenever it likes.
  const resize = (cols: number, rows: number) => {
    if (exited) return;
    try {
      src?.resize?.(cols, rows);
    } catch {
      /* the process is going away */
    }
  };
  const subs = [
    source.onOutput((d) => emit(toTerminalText(d))),
    source.onExit(({ exitCode, signal }) => {
      exited = true;
      // neither: its source could not see how it ended (a hosted terminal whose host went) and said so
      if (exitCode === null && !signal) return;
      emit(`\r\n\x1b[2m[process exited${signal ? ` by ${signal}` : ` with code ${exitCode}`}]\x1b[0m\r\n`);
    }),
  ];
  return {
    onDidWrite: write.event,
    open(dims) {
      opened = true;
      if (banner) write.fire(banner);
      if (dropped) write.fire(`\x1b[2m[… ${dropped} characters of earlier output not kept …]\x1b[0m\r\n`);
      for (const s of pending.splice(0)) write.fire(s);
      held = 0;
      if (dims) resize(dims.columns, dims.rows);
    },
    close() {},
    handleInput(data) {
      if (!exited) src?.write(data);
    },
    setDimensions(dims) {
      resize(dims.columns, dims.rows);
    },
    dispose() {
      for (const s of subs.splice(0)) s.dispose();
      src = undefined;
      pending.length = 0;
      write.dispose();
    },
  };
}

const RECENT_CAP = 64 * 1024;
/** Agent terminals kept open (and their recent output kept) once exited; older exited ones are closed. */
export const KEEP_EXITED_TERMINALS = 24;

type TerminalExit = { exitCode: number | null; signal: string | null };
/** A chunk of a terminal's output, or (with `exit` and empty `data`) its exit. */
export interface TerminalOutput {
  sessionId: string;
  terminalId: string;
  data: string;
  exit?: TerminalExit;
}

interface Recent {
  sessionId: string;
  text: string;
  exit?: TerminalExit;
  /** The pty, its subscriptions and the VS Code terminal: disposed when the terminal goes. */
  owned: vscode.Disposable[];
  terminal?: vscode.Terminal;
}

export class PseudoterminalHost implements TerminalHost, vscode.Disposable {
  readonly #output = new vscode.EventEmitter<TerminalOutput>();
  readonly onOutput = this.#output.event;
  /** Recent output per terminal (bounded, open and the last exited ones), so a panel opened later shows it. */
  readonly #recent = new Map<string, Recent>();
  readonly #closeSub: vscode.Disposable;

  constructor(
    private readonly sessionLabel: (sessionId: string) => string,
    private readonly keepExited = KEEP_EXITED_TERMINALS,
  ) {
    // a terminal the user closed gives back its pty and buffers
    this.#closeSub = vscode.window.onDidCloseTerminal((t) => {
      for (const [id, r] of this.#recent) if (r.terminal === t) this.#drop(id, r);
    });
  }

  /** Terminals held (the bounded-memory host test reads it). */
  get held(): number {
    return this.#recent.size;
  }

  onTerminalCreated(view: TerminalView): void {
    const pty = createPty(view, { banner: `$ ${view.commandLine}   (cwd ${view.cwd})` });
    const recent: Recent = { sessionId: view.sessionId, text: "", owned: [] };
    this.#recent.set(view.terminalId, recent);
    recent.owned.push(
      pty,
      view.onOutput((data) => {
        recent.text = (recent.text + data).slice(-RECENT_CAP);
        this.#output.fire({ sessionId: view.sessionId, terminalId: view.terminalId, data });
      }),
      view.onExit((exit) => {
        recent.exit = exit;
        this.#output.fire({ sessionId: view.sessionId, terminalId: view.terminalId, data: "", exit });
        this.#prune();
      }),
    );
    const terminal = vscode.window.createTerminal({
      name: `${this.sessionLabel(view.sessionId)}: ${view.commandLine}`.slice(0, 80),
      pty,
      iconPath: new vscode.ThemeIcon("hubot"),
      isTransient: true,
    });
    recent.terminal = terminal;
    recent.owned.push(terminal);
    terminal.show(true); // visible, focus stays where the user is
  }

  /** Closes the oldest exited terminals past `keepExited` (default KEEP_EXITED_TERMINALS). */
  #prune(): void {
    let over = [...this.#recent.values()].filter((r) => r.exit).length - this.keepExited;
    for (const [id, r] of this.#recent) {
      if (over <= 0) return;
      if (!r.exit) continue;
      this.#drop(id, r);
      over--;
    }
  }

  #drop(id: string, r: Recent): void {
    this.#recent.delete(id);
    for (const d of r.owned.splice(0)) d.dispose();
  }

  recentOutput(sessionId: string): { terminalId: string; data: string; exit?: TerminalExit }[] {
    return [...this.#recent]
      .filter(([, r]) => r.sessionId === sessionId)
      .map(([terminalId, r]) => ({ terminalId, data: r.text, exit: r.exit }));
  }

  dispose(): void {
    this.#closeSub.dispose();
    for (const [id, r] of this.#recent) this.#drop(id, r);
    this.#output.dispose();
  }
}
