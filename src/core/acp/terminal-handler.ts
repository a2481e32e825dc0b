/**
 * Serves `terminal/create|output|wait_for_exit|kill|release`; `terminal/create` only once the policy lets the
 * command run (effect-gate.ts). Terminals stay in the table after release (the
 * process is killed) so their output can still be shown in the tool calls that embed them.
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

interface ManagedTerminal {
  readonly id: string;
  readonly sessionId: string;
  readonly proc: TerminalProcess;
  readonly output: OutputBuffer;
  readonly exited: Promise<TerminalExit>;
  exit: TerminalExit | undefined;
  released: boolean;
}

export class TerminalManager {
  readonly #terminals = new Map<string, ManagedTerminal>();

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
    const proc = startTerminalProcess({ command: params.command, args: params.args, cwd, env, noPty: this.opts.noPty });
    const output = new OutputBuffer(params.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT);
    const onOutput = new Emitter<string>();
    const onExit = new Emitter<TerminalExit>();
    let resolveExit!: (e: TerminalExit) => void;
    const term: ManagedTerminal = {
      id: `term-${randomUUID()}`,
      sessionId: params.sessionId,
      proc,
      output,
      exited: new Promise((r) => (resolveExit = r)),
      exit: undefined,
      released: false,
    };
    proc.onData((data) => {
      output.append(data);
      onOutput.fire(typeof data === "string" ? data : data.toString("utf8"));
    });
    proc.onExit((exit) => {
      term.exit = exit;
      resolveExit(exit);
      onExit.fire(exit);
    });
    this.#terminals.set(term.id, term);
    const commandLine = [params.command, ...(params.args ?? [])].join(" ");
    const view: TerminalView = {
      terminalId: term.id,
      sessionId: params.sessionId,
      commandLine,
      cwd,
      onOutput: (l) => onOutput.event(l),
      onExit: (l) => (term.exit ? (l(term.exit), toDisposable(() => {})) : onExit.event(l)),
      write: (data) => proc.write(data),
      resize: (cols, rows) => proc.resize(cols, rows),
    };
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
      truncated: term.output.truncated,
      ...(term.exit ? { exitStatus: term.exit } : {}),
    };
  }

  async waitForExit(
    params: acp.WaitForTerminalExitRequest,
    signal?: AbortSignal,
  ): Promise<acp.WaitForTerminalExitResponse> {
    const term = this.#get(params.terminalId);
    if (!signal) return await term.exited;
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
    return {};
  }

  /** Output of any terminal this runtime started, released or not (for hosts rendering tool calls). */
  outputOf(terminalId: string): { output: string; truncated: boolean; exitStatus?: TerminalExit } | undefined {
    const term = this.#terminals.get(terminalId);
    return (
      term && {
        output: term.output.text(),
        truncated: term.output.truncated,
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
