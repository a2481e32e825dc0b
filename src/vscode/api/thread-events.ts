/**
 * The editor's thread events for other extensions and hooks (#35 item 4), in the shapes `acp-threads events`
 * prints for the thread host's sessions (HostEvent): a session started, needs an answer, was answered (who: this
 * window, the policy, a remembered rule, a cancel), an elicitation asked and answered, a turn started, a turn ended
 * (stop reason, files edited; `error` for a turn that failed), what the agent reported it used (usage), the session
 * ended. Folded from the window's live sessions (LiveSessions), the permission broker (questions.ts) and the
 * sessions' elicitors (elicitation-events.ts); a turn's report is core/host/turn-report.ts, the same fold the host
 * uses.
 * The threads the thread host runs come from the host (host/hosted-events.ts), in the same stream: a thread is the
 * window's or the host's at a time, never both, so each event comes once.
 */
import * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import { TurnReport } from "../../core/host/turn-report";
import type { LiveSession } from "../live-session";
import type { LiveSessions } from "../live-sessions";
import type { PermissionBroker } from "../permission-broker";
import { Questions } from "./questions";

const now = () => new Date().toISOString();

export class ThreadEvents implements vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<HostEvent>();
  /** Every event of the window's sessions, as it happens (the turnEnded hook's: a hosted turn is the host's). */
  readonly onWindowEvent = this.#emitter.event;
  readonly #all = new vscode.EventEmitter<HostEvent>();
  /** The window's sessions' events and the thread host's threads' (the extension's API). */
  readonly onThreadEvent = this.#all.event;
  readonly #tracked = new Map<LiveSession, vscode.Disposable>();
  /** The window's sessions' permission requests, announced and answered. */
  readonly #questions: Questions;
  readonly #subs: vscode.Disposable[];

  /**
   * `window`: this window's name (who answered on its cards); `hosted`: the thread host's threads' events;
   * `elicitations`: the window's sessions' elicitations, asked and answered (elicitation-events.ts).
   */
  constructor(
    private readonly live: LiveSessions,
    private readonly broker: PermissionBroker,
    window: string,
    hosted?: vscode.Event<HostEvent>,
    elicitations?: vscode.Event<HostEvent>,
  ) {
    this.#questions = new Questions(window);
    this.#subs = [
      live.onDidChange(() => this.#sync()),
      broker.onDidChange((id) => this.#asked(id)),
      this.#emitter.event((e) => this.#all.fire(e)),
    ];
    if (elicitations) this.#subs.push(elicitations((e) => this.#emitter.fire(e)));
    if (hosted) this.#subs.push(hosted((e) => this.#all.fire(e)));
    this.#sync();
  }

  #sync(): void {
    const present = new Set(this.live.all());
    for (const s of present) if (!this.#tracked.has(s)) this.#track(s);
    for (const [s, sub] of this.#tracked) if (!present.has(s)) this.#untrack(s, sub);
  }

  #track(s: LiveSession): void {
    const report = new TurnReport();
    const { threadId } = s;
    let ended = false;
    let was = s.status;
    /** A turn_started was told and its turn_ended not yet: an error then ends the turn (no `done` comes). */
    let turn = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.#emitter.fire({ kind: "ended", threadId, at: now(), exitCode: s.status === "failed" ? 1 : 0 });
    };
    this.#tracked.set(
      s,
      vscode.Disposable.from(
        s.onEvents((events) => {
          for (const e of events) {
            if (e.type === "permission") this.#emitter.fire(this.#questions.decided(threadId, e.decision, now()));
            // as the host tells its runs' (host-runner.ts): a turn the agent answered with an error, or that died
            const end = report.add(e) ?? (e.type === "error" && turn ? report.failed() : undefined);
            if (!end) continue;
            turn = false;
            const at = now();
            this.#emitter.fire({
              kind: "turn_ended",
              threadId,
              at,
              stopReason: end.stopReason,
              filesChanged: end.filesChanged,
            });
            if (end.usage) this.#emitter.fire({ kind: "usage", threadId, at, ...end.usage });
          }
        }),
        s.onStatus((status) => {
          // a turn begins working; an answered permission request only goes back to it
          if (status === "working" && was !== "waiting_permission") {
            turn = true;
            this.#emitter.fire({ kind: "turn_started", threadId, at: now() });
          }
          was = status;
          if (!s.isOpen) end();
        }),
        { dispose: end },
      ),
    );
    this.#emitter.fire({ kind: "started", threadId, at: now() });
  }

  #untrack(s: LiveSession, sub: vscode.Disposable): void {
    this.#tracked.delete(s);
    this.#questions.forget(s.threadId);
    sub.dispose();
  }

  /**
   * A thread's pending requests changed: the new ones are announced (needs_input). The window's own sessions only:
   * the broker also asks for the threads the thread host runs, whose questions the host announces.
   */
  #asked(threadId: string): void {
    const s = this.live.get(threadId);
    if (!s?.isOpen || !this.#tracked.has(s)) return;
    for (const e of this.#questions.pending(threadId, this.broker.pendingFor(threadId), now())) this.#emitter.fire(e);
  }

  dispose(): void {
    for (const [s, sub] of this.#tracked) this.#untrack(s, sub);
    for (const d of this.#subs) d.dispose();
    this.#emitter.dispose();
    this.#all.dispose();
  }
}
