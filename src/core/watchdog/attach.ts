/**
 * Puts a live thread under a `Supervisor`: its events, stderr and death feed the watchdog, and the ladder acts
 * on it. Structural on purpose (`ThreadSession` fits), so hosts (the extension, the CLI) wire any session the
 * same way; the host passes its own prompt path so a re-prompt shows and records like one typed by a person.
 */
import type { Disposable } from "../lifecycle";
import type { RuntimeEvent } from "../model/events";
import type { LadderTarget } from "./retry-ladder";
import { Supervisor, type SupervisorOptions } from "./supervisor";

export interface SupervisableSession {
  readonly turnRunning: boolean;
  readonly agentAlive: boolean;
  onEvent(listener: (e: RuntimeEvent) => void): Disposable;
  onTraffic(listener: (e: { direction: string; text: string }) => void): Disposable;
  onAgentExit(listener: (e: { message: string; stderrTail: string[] }) => void): Disposable;
  cancel(): Promise<void>;
  turnEnded(): Promise<void>;
  restart(): Promise<string>;
}

export interface SuperviseOptions extends SupervisorOptions {
  /**
   * Starts a turn the way the host does (it must call `supervisor.turnStarted()` / `turnEnded()` around it, as
   * for every turn). Resolves or rejects when the turn ends; the ladder does not wait for that.
   */
  prompt(text: string): Promise<unknown>;
}

export function superviseSession(session: SupervisableSession, opts: SuperviseOptions): Supervisor {
  const target: LadderTarget = {
    turnRunning: () => session.turnRunning,
    agentAlive: () => session.agentAlive,
    cancel: () => session.cancel(),
    turnEnded: () => session.turnEnded(),
    prompt: async (text) => void opts.prompt(text).catch(() => undefined),
    restart: () => session.restart(),
  };
  const supervisor = new Supervisor(target, opts);
  supervisor.own(
    session.onEvent((e) => supervisor.watchdog.observe(e)),
    session.onTraffic((e) => e.direction === "stderr" && supervisor.watchdog.stderr(e.text)),
    session.onAgentExit((e) => supervisor.watchdog.agentExited(e.message, e.stderrTail)),
  );
  return supervisor;
}
