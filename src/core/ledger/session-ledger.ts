/**
 * The edit ledger as one thread session sees it: holds the folder's baseline while the session lives, captures
 * each turn (fs writes from the runtime, tool calls from the event stream, disk changes at the end) and turns
 * conflict-radar findings about this thread into notices in its event stream. ThreadSession owns one.
 */
import { errorMessage } from "../errors";
import { DisposableStore, type Disposable } from "../lifecycle";
import type { Logger } from "../log";
import type { AgentRuntime } from "../acp/runtime";
import type { RuntimeEvent } from "../model/events";
import type { EditLedger } from "./edit-ledger";
import type { TurnCapture } from "./turn-capture";

export class SessionLedger implements Disposable {
  readonly #ledger: EditLedger;
  readonly #subs = new DisposableStore();
  #runtimeSub: Disposable | undefined;
  #capture: TurnCapture | undefined;
  /** The highest turn number the thread's ledger holds (read at the first turn). */
  #lastTurn: number | undefined;

  constructor(
    ledger: EditLedger,
    readonly threadId: string,
    readonly cwd: string,
    readonly agent: { id: string; name: string },
    private readonly emit: (event: RuntimeEvent) => void,
    private readonly logger: Logger,
  ) {
    this.#ledger = ledger;
    this.#subs.add(ledger.openSession(threadId, cwd, agent.name));
    this.#subs.add(
      ledger.onConflict((n) => {
        if (n.threadId === threadId) this.#notice(n.message);
      }),
    );
  }

  /** Follows the runtime's fs writes (again after a crash recovery gave the session a new runtime). */
  attach(runtime: AgentRuntime, sessionId: () => string): void {
    this.#runtimeSub?.dispose();
    this.#runtimeSub = runtime.onFileWrite?.((w) => {
      if (w.sessionId === sessionId()) this.#capture?.noteWrite(w);
    });
  }

  /**
   * Starts capturing the thread's prompt number `turn`. A ledger recorded before turns were numbered by prompts
   * (a steered message took a number) may already hold that number: the turn then goes on after its last one, so
   * no operation id is reused.
   */
  async begin(prompt: number): Promise<void> {
    let turn = prompt;
    try {
      this.#lastTurn ??= (await this.#ledger.readAsync(this.threadId)).ops.reduce(
        (n, o) => Math.max(n, o.turn ?? 0),
        0,
      );
      turn = Math.max(prompt, this.#lastTurn + 1);
      this.#lastTurn = turn;
      this.#capture = await this.#ledger.beginTurn({ threadId: this.threadId, turn, cwd: this.cwd, agent: this.agent });
    } catch (err) {
      this.logger.warn(`edit ledger: turn ${turn} is not recorded: ${errorMessage(err)}`);
    }
  }

  observe(event: RuntimeEvent): void {
    if (event.type === "tool_call") this.#capture?.noteToolCall(event.toolCall);
  }

  async end(stopReason: string): Promise<void> {
    const capture = this.#capture;
    this.#capture = undefined;
    await capture?.end(stopReason).catch((err) => this.logger.warn(`edit ledger: ${errorMessage(err)}`));
  }

  #notice(description: string): void {
    this.emit({ type: "notice", severity: "warning", title: "Conflict radar", description });
  }

  dispose(): void {
    this.#runtimeSub?.dispose();
    this.#subs.dispose();
  }
}
