/**
 * Exec runs in the thread host (#35 item 1, "ACP and exec"): an agent CLI (`codex exec`, `claude --print`, ...) or
 * any command line a client asks for runs in the host's own pty, in the data home's exec registry (so
 * `acp-threads exec list|logs|kill` see it, recorded as an exec thread with its edit ledger, as the window's and the
 * CLI's runs are), and outlives the window that asked.
 *
 * Checked as an ACP run's start is: its folder and roots must be inside the asking client's folders (real paths:
 * a link leading out is refused, run-roots.ts), or a run in a worktree the client made must be in one the host would
 * have made itself for a repository of those folders (`assertWorktreeOffered`, as a Best of N candidate's), and its OS sandbox is prepared here from the settings the client
 * decided with, as `exec --sandbox` prepares it. Env values are held in memory only (the registry never writes
 * them). The run's terminal is a hosted terminal (editor-terminals.ts): every client showing terminals of its
 * folder gets its output (bounded, a late or reloaded one its recent output), may type into it and resize it; any
 * client of the user may stop it (as `acp-threads exec kill` may, from the run's state file).
 *
 * No orphans: the run's process group is stopped when the host stops, and a guard (parent-guard.ts) stops it when
 * the host dies without stopping it (SIGKILL, a crash).
 */
import { isAbsolute } from "node:path";
import { guardAgainstParentDeath } from "../acp/parent-guard";
import { commandName } from "../acp/command-name";
import { AcpThreadsError } from "../errors";
import type { ExecRegistry, ExecRun, TranscriptKind } from "../exec";
import type { EditLedger } from "../ledger/edit-ledger";
import type { Logger } from "../log";
import type { WorktreeRef } from "../model/records";
import type { EditorTerminals } from "./editor-terminals";
import type { HostReply } from "./protocol";
import {
  EXEC_TITLE_MAX,
  type ExecRequest,
  type HostExec,
  type HostExecInfo,
  type HostExecInput,
} from "./protocol-exec";
import { type ServeOffer } from "./protocol-serve";
import { HostRefusal } from "./protocol-refusal";
import { assertRootsOffered, assertWorktreeOffered } from "./run-roots";
import { timeoutProblem } from "./timer-fields";

export interface HostExecsOptions {
  home: string;
  logger: Logger;
  terminals: EditorTerminals;
}

export class HostExecs {
  #registry: ExecRegistry | undefined;
  #ledger: EditLedger | undefined;
  readonly #running = new Map<string, { run: ExecRun; info: HostExecInfo; exec: HostExec }>();
  #stopped = false;

  constructor(private readonly opts: HostExecsOptions) {}

  /** The runs that still run. */
  get running(): HostExecInfo[] {
    return [...this.#running.values()].map((r) => r.info);
  }

  /**
   * A client's exec request (`exec_start`, `exec_stop`, `exec_input`), its folders `offer`ed in its hello;
   * `changed`: the host's count of what keeps it running moved (a run started or ended).
   */
  async request(req: ExecRequest, offer: ServeOffer | undefined, changed: () => void): Promise<HostReply> {
    const { id } = req;
    if (req.t === "exec_stop") await this.stop(req.runId);
    else if (req.t === "exec_input") await this.input(req.runId, req.input, offer);
    else {
      const exec = await this.start(req.exec, offer, changed);
      changed();
      return { t: "exec_started", id, exec };
    }
    return { t: "ok", id };
  }

  /** Starts `raw` for a client whose folders are `offer`'s; resolves once its process runs. */
  async start(raw: unknown, offer: ServeOffer | undefined, onEnd: () => void): Promise<HostExecInfo> {
    const exec = checkedExec(raw);
    const worktree = exec.preparedWorktree?.ref;
    await assertOffered(exec, offer);
    const { home } = this.opts;
    const env = { ...(exec.baseEnv ?? process.env), ...exec.env, ACP_THREADS_HOME: home };
    const registry = await this.#open();
    if (this.#stopped) throw new AcpThreadsError("usage", "the thread host is stopping");
    const { sessionSandbox } = await import("../sandbox/session");
    const { startSandboxed } = await import("../sandbox/plan");
    const sandbox =
      exec.sandbox &&
      (await sessionSandbox({
        roots: [exec.cwd, ...(exec.roots ?? [])],
        agentId: exec.presetId ?? commandName(exec.command),
        env,
        dataHome: home,
        settings: exec.sandbox,
      }));
    const run = await startSandboxed(sandbox, async () => {
      await registry.prepare(exec.cwd);
      return await registry.startAsync({
        command: exec.command,
        args: exec.args,
        cwd: exec.cwd,
        env,
        pty: exec.pty ?? true,
        ...(exec.cols && exec.rows ? { cols: exec.cols, rows: exec.rows } : {}),
        ...(exec.closeStdin ? { closeStdin: true } : {}),
        ...(exec.presetId ? { presetId: exec.presetId } : {}),
        ...(exec.transcript ? { transcript: exec.transcript } : {}),
        ...(exec.timeoutMs ? { timeoutMs: exec.timeoutMs } : {}),
        ...(sandbox ? { sandbox } : {}),
        ...(worktree ? { worktree } : {}),
      });
    });
    const { state } = run;
    const info: HostExecInfo = {
      runId: run.id,
      title: exec.title ?? state.commandLine,
      commandLine: state.commandLine,
      cwd: state.cwd,
      startedAt: state.startedAt,
      ...(state.threadId ? { threadId: state.threadId } : {}),
      ...(state.sandboxed ? { sandboxed: true } : {}),
      ...(worktree ? { worktree } : {}),
    };
    const unguard = state.pgid ? guardAgainstParentDeath(state.pgid) : () => {};
    this.#running.set(run.id, { run, info, exec });
    run.onExit(() => {
      unguard();
      this.#running.delete(run.id);
      onEnd();
    });
    this.opts.terminals.showExec(
      {
        terminalId: run.id,
        sessionId: "",
        commandLine: state.commandLine,
        cwd: state.cwd,
        onOutput: (l) => run.onOutput((e) => l(e.text)),
        onExit: (l) => run.onExit((i) => l({ exitCode: i.exitCode, signal: i.signal, status: i.status })),
        write: (data) => run.running && run.write(data),
        resize: (cols, rows) => run.running && run.resize(cols, rows),
      },
      info,
    );
    return info;
  }

  /** Stops a run the host owns (its process group); resolves once it has exited. */
  async stop(runId: unknown): Promise<void> {
    await this.#get(runId).run.kill();
  }

  /** Types into a run the host owns, for a client whose folders hold it (as they had to for its start). */
  async input(runId: unknown, raw: unknown, offer: ServeOffer | undefined): Promise<void> {
    const { data, line, keys } = (raw ?? {}) as Partial<Record<keyof HostExecInput, unknown>>;
    if (![data, line].every((v) => v === undefined || isString(v)) || !(keys === undefined || isStrings(keys)))
      throw new AcpThreadsError("usage", "exec_input: data and line must be strings, keys a list of strings");
    const r = this.#get(runId);
    await assertOffered(r.exec, offer);
    if (!r.run.running) throw new HostRefusal("exec_not_hosted", `exec run ${r.run.id} has ended`);
    if (isString(data)) r.run.write(data);
    if (isString(line)) r.run.submit(line);
    if (isStrings(keys)) r.run.sendKeys(keys);
  }

  #get(runId: unknown): { run: ExecRun; exec: HostExec } {
    const r = typeof runId === "string" ? this.#running.get(runId) : undefined;
    if (!r) throw new HostRefusal("exec_not_hosted", `the host runs no exec run '${String(runId)}'`);
    return r;
  }

  /** The host leaves: every run it owns is stopped, its ledger written. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    await this.#registry?.shutdown(true);
    this.#registry?.dispose();
    await this.#ledger?.flush();
    this.#ledger?.dispose();
  }

  /** The registry and its edit ledger, loaded with the first run: a host waiting idle holds neither (its RSS). */
  async #open(): Promise<ExecRegistry> {
    const [{ openExecRegistry }, { EditLedger }, { LedgerExecRecorder }] = await Promise.all([
      import("../exec/open-registry"),
      import("../ledger/edit-ledger"),
      import("../ledger/exec-recorder"),
    ]);
    const { home, logger } = this.opts;
    const ledger = (this.#ledger ??= new EditLedger({ home, logger }));
    return (this.#registry ??= openExecRegistry(home, {
      logger,
      wrapRecorder: (threads) => new LedgerExecRecorder(ledger, threads, logger),
    }));
  }
}

/** The run's folders are the client's: its cwd and roots inside them, or its worktree one of their repositories'. */
async function assertOffered(exec: HostExec, offer: ServeOffer | undefined): Promise<void> {
  if (exec.preparedWorktree) await assertWorktreeOffered({ preparedWorktree: exec.preparedWorktree }, offer);
  else await assertRootsOffered([exec.cwd, ...(exec.roots ?? [])], offer);
}

const TRANSCRIPT_KINDS: readonly TranscriptKind[] = ["codex", "claude", "gemini"];
const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every(isString);
const dimension = (n: unknown): boolean => Number.isInteger(n) && (n as number) > 0 && (n as number) <= 10_000;

/** The request's exec, its fields checked (a client's message is data, not trusted to be well formed). */
function checkedExec(raw: unknown): HostExec {
  const e = (raw ?? {}) as Partial<Record<keyof HostExec, unknown>>;
  const bad = (why: string): never => {
    throw new AcpThreadsError("usage", `exec_start: ${why}`);
  };
  if (!isString(e.command) || !e.command) bad("command must be a non-empty string");
  if (!Array.isArray(e.args) || !e.args.every(isString)) bad("args must be strings");
  if (!isString(e.cwd) || !isAbsolute(e.cwd)) bad("cwd must be an absolute path");
  if (e.transcript !== undefined && !TRANSCRIPT_KINDS.includes(e.transcript as TranscriptKind))
    bad(`transcript must be one of ${TRANSCRIPT_KINDS.join(", ")}`);
  if (e.presetId !== undefined && !isString(e.presetId)) bad("presetId must be a string");
  if (e.roots !== undefined && !(Array.isArray(e.roots) && e.roots.every(isString))) bad("roots must be strings");
  if ((e.cols !== undefined || e.rows !== undefined) && !(dimension(e.cols) && dimension(e.rows)))
    bad("cols and rows must be integers from 1 to 10000");
  if (e.env !== undefined && !isStringRecord(e.env)) bad("env must map names to strings");
  if (e.baseEnv !== undefined && !isStringRecord(e.baseEnv)) bad("baseEnv must map names to strings");
  const timeout = timeoutProblem(e.timeoutMs);
  if (timeout) bad(timeout);
  if (e.title !== undefined && !isString(e.title)) bad("title must be a string");
  if (e.preparedWorktree !== undefined) {
    const { ref, cwd } = (e.preparedWorktree ?? {}) as Partial<NonNullable<HostExec["preparedWorktree"]>>;
    const r = (ref ?? {}) as Partial<Record<keyof WorktreeRef, unknown>>;
    if (![r.path, r.repo, r.base, r.createdAt].every(isString)) bad("preparedWorktree.ref's fields must be strings");
    if (cwd !== e.cwd) bad("cwd must be the prepared worktree's cwd");
    if ((e.roots as string[] | undefined)?.length)
      bad("roots go without a prepared worktree (the worktree is the run's whole world)");
  }
  const exec = e as HostExec;
  return { ...exec, ...(exec.title !== undefined ? { title: exec.title.slice(0, EXEC_TITLE_MAX) } : {}) };
}
