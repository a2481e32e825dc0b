/**
 * What the thread host (server.ts) gives the runner of each detached run, and what it expects of it: the contract
 * between the host and its entry point's run path (the CLI's, cli/host-runner.ts).
 */
import type { ElicitationAnswer, ElicitationPrompt } from "../model/elicitation";
import type { ErrorInfo } from "../errors";
import type { Logger } from "../log";
import type { PermissionDecision } from "../model/events";
import type { ThreadRecord } from "../model/records";
import type { PermissionAsker, TerminalHost, WorkspaceFiles } from "../ports";
import type { HostPlace } from "./door";
import type { DetachedRun, HostWatchdog } from "./protocol";
import type { HostSessionState } from "./session-state";
import type { ThreadControl } from "./thread-control";
import type { TurnUsageReport } from "./turn-report";

export interface HostRunControl {
  /** Aborted by `host stop --force`: the run stops its turn and closes its session. */
  signal: AbortSignal;
  /** Asks the thread's attached clients (first answer wins); only given for `--permission ask`. */
  asker?: PermissionAsker;
  /**
   * Asks the thread's attached clients the agent's elicitation (first answer wins); undefined when none is attached
   * (or the thread is not open yet).
   */
  elicit(prompt: ElicitationPrompt): Promise<ElicitationAnswer> | undefined;
  /** The run's watchdog changed: the thread's clients and the event listeners hear it. */
  watchdog(state: HostWatchdog): void;
  /** The files of a session in `cwd`: an attached editor's where one serves that folder, else the disk. */
  files(cwd: string): WorkspaceFiles;
  /** The terminals of a session in `cwd` (agent `label`): run here, shown by the editors serving that folder. */
  terminalHost(cwd: string, label: string): TerminalHost;
  /** The thread is open: the host holds it from now on. */
  opened(threadId: string, path: string, control: ThreadControl): void;
  /** The session emitted an update (its record is in the thread file): the clients get it now. */
  updated(): void;
  /** Records the session just appended at bytes `start`..`end` of the thread file (its handle's onAppend). */
  appended(records: ThreadRecord[], start: number, end: number): void;
  /** The session's state (modes, config options, slash commands, login) changed: the clients get it now. */
  sessionState(state: HostSessionState): void;
  /** A turn began (its session went working): the event listeners hear it (every window's row, `events`). */
  turnStarted(): void;
  /**
   * A permission request was decided by the policy or a remembered rule (a front end's runs that tell it,
   * HostRunFrontEnd.tellsDecisions), a client's answer or a cancel: the host tells the first two.
   */
  decided(d: PermissionDecision): void;
  /** A turn ended: what it did (usage: what the agent reported about it, when it did). */
  turnEnded(stopReason: string | null, filesChanged: string[], usage?: TurnUsageReport): void;
  /** A run kept open (DetachedRun.keepOpen) waits for its next prompt (true), or a prompt came (false). */
  idle?(waiting: boolean): void;
}

/** Runs one detached run to its end (the CLI's run path); resolves with its exit code. */
export type HostRunner = (
  run: DetachedRun,
  ctl: HostRunControl,
) => Promise<{ exitCode: number; error?: string; errorInfo?: ErrorInfo }>;

/** What a thread host (server.ts) is made with. */
export interface HostOptions {
  home: string;
  place: HostPlace;
  runner: HostRunner;
  /**
   * How long the host stays with no session and no client; also how long a run kept open waits idle with no client
   * attached before it is stopped.
   */
  idleMs?: number;
  logger: Logger;
  /** How long an editor serving a session's files is waited for (editor-serve.ts; tests shorten it). */
  serveTimeoutMs?: { read: number; write: number };
  /** Awaited before a client's hello shows it the running terminals (editor-terminals.ts; tests hold it). */
  offerGate?: () => Promise<void>;
  /**
   * The scripts its long engine requests run in (host-worker.ts; default: beside its bundle): the engine process
   * and the engine worker it runs (default: beside the process's).
   */
  engineScripts?: { process?: string; worker?: string };
}
