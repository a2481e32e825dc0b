/**
 * The editor's thread events for other extensions and hooks (#35 item 4), in the shapes `acp-threads events`
 * prints for the thread host's sessions (HostEvent): a session started, needs an answer, a turn ended (stop
 * reason, files edited), what the agent reported it used (usage), the session ended. Folded from the window's
 * live sessions (LiveSessions) and the permission broker; a turn's report is core/host/turn-report.ts, the same
 * fold the host uses.
 */
import * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import { TurnReport } from "../../core/host/turn-report";
import type { LiveSession } from "../live-session";
import type { LiveSessions } from "../live-sessions";
import type { PermissionBroker } from "../permission-broker";

const now = () => new Date().toISOString();

export class ThreadEvents implements vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<HostEvent>();
  /** Every event of the window's sessions, as it happens. */
  readonly onThreadEvent = this.#emitter.event;
  readonly #tracked = new Map<LiveSession, vscode.Disposable>();
  /** The permission requests already announced, per thread. */
  readonly #asked = new Map<string, Set<string>>();
  readonly #subs: vscode.Disposable[];

  constructor(
    private readonly live: LiveSessions,
    private readonly broker: PermissionBroker,
  ) {
    this.#subs = [live.onDidChange(() => this.#sync()), broker.onDidChange((id) => this.#questions(id))];
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
            const turn = report.add(e);
            if (!turn) continue;
            const at = now();
            this.#emitter.fire({
              kind: "turn_ended",
              threadId,
              at,
              stopReason: turn.stopReason,
              filesChanged: turn.filesChanged,
            });
            if (turn.usage) this.#emitter.fire({ kind: "usage", threadId, at, ...turn.usage });
          }
        }),
        s.onStatus(() => (s.isOpen ? undefined : end())),
        { dispose: end },
      ),
    );
    this.#emitter.fire({ kind: "started", threadId, at: now() });
  }

  #untrack(s: LiveSession, sub: vscode.Disposable): void {
    this.#tracked.delete(s);
    this.#asked.delete(s.threadId);
    sub.dispose();
  }

  /** A thread's pending requests changed: the new ones are announced (needs_input). */
  #questions(threadId: string): void {
    const pending = this.broker.pendingFor(threadId);
    const asked = this.#asked.get(threadId) ?? new Set<string>();
    this.#asked.set(threadId, new Set(pending.map((p) => p.requestId)));
    for (const p of pending)
      if (!asked.has(p.requestId))
        this.#emitter.fire({
          kind: "needs_input",
          threadId,
          at: now(),
          question: { threadId, requestId: p.requestId, title: p.title, options: p.options },
        });
  }

  dispose(): void {
    for (const [s, sub] of this.#tracked) this.#untrack(s, sub);
    for (const d of this.#subs) d.dispose();
    this.#emitter.dispose();
  }
}
