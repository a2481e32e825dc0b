/**
 * Serves `terminal/create|output|wait_for_exit|kill|release`; `terminal/create` only once the policy lets the
 * command run (effect-gate.ts). Terminals stay in the table after release (the process is killed) so their output
 * can still be shown in the tool calls that embed them, with bounded memory over a long day: a released terminal
 * keeps only the last `FINISHED_KEEP_BYTES` of its output and drops its listeners once its process is gone; of the
 * terminals that ended (exited or released) the last `KEEP_FULL` keep their whole buffer, older ones are cut like
 * released ones, and past `KEEP_ANY` they are forgotten (`terminal/output` then answers "unknown terminal").
 */
import type * as acp from "@agentclientprotocol/sdk";
import { randomUUID } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import { AcpThreadsError } from "../errors";
import { Emitter, toDisposable } from "../lifecycle";
import type { TerminalView } from "../ports";
import { gateTerminal } from "./effect-gate";
import { DEFAULT_OUTPUT_BYTE_LIMIT, OutputBuffer } from "./output-buffer";
import type { EngineContext } from "./session-state";
import { killTerminalProcess, startTerminalProcess, type TerminalExit, type TerminalProcess } from "./terminal-process";

export const FINISHED_KEEP_BYTES = 16 * 1024;
const KEEP_FULL = 16;
const KEEP_ANY = 256;

interface ManagedTerminal {
  readonly id: string;
  readonly sessionId: string;
  readonly proc: TerminalProcess;
  output: OutputBuffer;
  /** Output was dropped when the buffer was cut down (on top of the buffer's own limit). */
  cut: boolean;
  readonly exited: Promise<TerminalExit>;
  exit: TerminalExit | undefined;
  released: boolean;
  /** The output/exit emitters (the terminal host's listeners), disposed once released and exited. */
  readonly emitters: { dispose(): void }[];
}

export class TerminalManager {
  readonly #terminals = new Map<string, ManagedTerminal>();
  /** Ids of terminals that exited or were released, oldest first. */
  readonly #ended = new Set<string>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly opts: { noPty?: boolean } = {},
  ) {}

  /** `engine`: started by the engine itself (an agent's advertised login), not asked for by the agent. */
  async create(
    params: acp.CreateTerminalRequest,
    from: "agent" | "engine" = "agent",
  ): Promise<acp.CreateTerminalResponse> {
    const session = this.ctx.session(params.sessionId);
    // A working directory the agent names must be inside the workspace, like any path it reads or writes.
    const cwd = params.cwd
      ? await this.ctx.guard.check(isAbsolute(params.cwd) ? params.cwd : resolve(session.cwd, params.cwd))
      : session.cwd;
    // The policy gates the command itself, not only the permission prompt an agent may have sent before it.
    if (from === "agent") await gateTerminal(this.ctx, session, params, cwd);
    const env: NodeJS.ProcessEnv = { ...this.ctx.terminalEnv };
    for (const v of params.env ?? []) env[v.name] = v.value;
    const proc = startTerminalProcess({
      command: params.command,
      args: params.args,
      cwd,
      env,
      noPty: this.opts.noPty,
      sandbox: this.ctx.sandbox,
    });
    const output = new OutputBuffer(params.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT);
    const onOutput = new Emitter<string>();
    const onExit = new Emitter<TerminalExit>();
    let resolveExit!: (e: TerminalExit) => void;
    const term: ManagedTerminal = {
      id: `term-${randomUUID()}`,
      sessionId: params.sessionId,
      proc,
      output,
      cut: false,
      exited: new Promise((r) => (resolveExit = r)),
      exit: undefined,
      released: false,
      emitters: [onOutput, onExit],
    };
    proc.onData((data) => {
      term.output.append(data);
      onOutput.fire(typeof data === "string" ? data : data.toString("utf8"));
    });
    const link: ViewLink = { term, onOutput, onExit };
    proc.onExit((exit) => {
      term.exit = exit;
      link.exit = exit;
      link.term = undefined;
      resolveExit(exit);
      onExit.fire(exit);
      this.#settle(term);
    });
    this.#terminals.set(term.id, term);
    const view = viewOf(link, term, [params.command, ...(params.args ?? [])].join(" "), cwd);
    try {
      this.ctx.terminalHost?.onTerminalCreated(view);
    } catch (err) {
      this.ctx.logger.warn("terminal host failed to show a terminal", err);
    }
    return { terminalId: term.id };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const term = this.#get(params.terminalId);
    return {
      output: term.output.text(),
      truncated: term.cut || term.output.truncated,
      ...(term.exit ? { exitStatus: term.exit } : {}),
    };
  }

  async waitForExit(
    params: acp.WaitForTerminalExitRequest,
    signal?: AbortSignal,
  ): Promise<acp.WaitForTerminalExitResponse> {
    const term = this.#get(params.terminalId);
    if (!signal) return await term.exited;
    // the SDK applies a `$/cancel_request` read with its request before it calls us: a listener never fires then
    if (signal.aborted) throw signal.reason;
    return await Promise.race([
      term.exited,
      new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true })),
    ]);
  }

  kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    const term = this.#get(params.terminalId);
    if (!term.exit) killTerminalProcess(term.proc, () => !term.exit);
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    const term = this.#get(params.terminalId);
    if (!term.exit) killTerminalProcess(term.proc, () => !term.exit);
    term.released = true;
    this.#settle(term);
    return {};
  }

  /** Terminals in the table and the bytes their buffers hold (the bounded-memory tests read these). */
  get retained(): { terminals: number; bytes: number } {
    let bytes = 0;
    for (const t of this.#terminals.values()) bytes += t.output.allocated;
    return { terminals: this.#terminals.size, bytes };
  }

  #settle(term: ManagedTerminal): void {
    if (term.released) this.#cut(term);
    if (term.released && term.exit) for (const e of term.emitters.splice(0)) e.dispose();
    if (this.#ended.has(term.id)) return;
    this.#ended.add(term.id);
    let older = this.#ended.size - KEEP_FULL;
    for (const id of this.#ended) {
      if (older-- <= 0) break;
      const t = this.#terminals.get(id);
      if (this.#ended.size > KEEP_ANY || !t) {
        this.#ended.delete(id);
        this.#terminals.delete(id);
      } else this.#cut(t);
    }
  }

  /** Keeps the last FINISHED_KEEP_BYTES of a terminal's output. */
  #cut(term: ManagedTerminal): void {
    if (term.output.limit <= FINISHED_KEEP_BYTES) return;
    const kept = new OutputBuffer(FINISHED_KEEP_BYTES);
    kept.append(term.output.text());
    term.cut ||= term.output.truncated || kept.truncated;
    term.output = kept;
  }

  /** Output of any terminal this runtime started, released or not (for hosts rendering tool calls). */
  outputOf(terminalId: string): { output: string; truncated: boolean; exitStatus?: TerminalExit } | undefined {
    const term = this.#terminals.get(terminalId);
    return (
      term && {
        output: term.output.text(),
        truncated: term.cut || term.output.truncated,
        ...(term.exit ? { exitStatus: term.exit } : {}),
      }
    );
  }

  /** Kills every running terminal (runtime close). */
  disposeAll(): void {
    for (const term of this.#terminals.values()) if (!term.exit) killTerminalProcess(term.proc, () => !term.exit, 200);
  }

  #get(terminalId: string): ManagedTerminal {
    const term = this.#terminals.get(terminalId);
    if (!term) throw new AcpThreadsError("not_found", `unknown terminal ${terminalId}`);
    return term;
  }
}

/** What a terminal's view reaches: the running terminal (until it exits), its exit and its emitters. */
interface ViewLink {
  term?: ManagedTerminal;
  exit?: TerminalExit;
  readonly onOutput: Emitter<string>;
  readonly onExit: Emitter<TerminalExit>;
}

/**
 * What the terminal host holds of a terminal. VS Code keeps a terminal's pty (and so this view) as long as it
 * lists the terminal, after its session closed too: the view's closures hold `link` only, which lets go of the
 * terminal (its process, whose listeners share `create`'s scope and so hold the manager, its engine context and
 * the whole session: runtime, protocol log, tool calls; a few MB per closed session) once it exited (#24).
 */
function viewOf(link: ViewLink, term: ManagedTerminal, commandLine: string, cwd: string): TerminalView {
  return {
    terminalId: term.id,
    sessionId: term.sessionId,
    commandLine,
    cwd,
    onOutput: (l) => link.onOutput.event(l),
    onExit: (l) => (link.exit ? (l(link.exit), toDisposable(() => {})) : link.onExit.event(l)),
    write: (data) => link.term?.proc.write(data),
    resize: (cols, rows) => link.term?.proc.resize(cols, rows),
  };
}
