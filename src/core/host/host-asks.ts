/**
 * What a hosted thread's run waits on a person for: its permission questions and its elicitations (#35). One
 * mechanism for both: each is sent to every attached client (and again to a client that attaches later), the
 * first answer wins, and every client is told who answered (`settled`) and closes its prompt; a later answer is an
 * error naming who answered first. An ask the agent or the turn withdraws settles with no answer.
 */
import type { HostPush } from "./protocol";
import { HostRefusal } from "./protocol-refusal";

export type AskPush = Extract<HostPush, { t: "question" } | { t: "elicitation" }>;
type SettledPush = Extract<HostPush, { t: "settled" }>;

/** Who settles an ask nobody answered (the agent withdrew it, or the turn was cancelled). */
export const WITHDRAWN = "the agent (cancelled)";
/** How many settled asks are remembered, to name who answered when a late answer comes. */
const REMEMBERED = 64;

interface Settled {
  t: AskPush["t"];
  by: string;
  optionId: string | null;
}

export interface OpenAsk {
  readonly push: AskPush;
  /** Settles it with a person's answer (`by`: the client's name). */
  settle(value: unknown, by: string): void;
}

export interface HostAsksOptions {
  threadId: string;
  /** Sends to every attached client, after the records before it. */
  send(msg: AskPush): void;
  /** Tells every attached client now. */
  tell(msg: SettledPush): void;
}

export class HostAsks {
  readonly #open = new Map<string, OpenAsk>();
  /** Settled asks (request id → their kind, who answered and the option taken), the latest last. */
  readonly #settled = new Map<string, Settled>();

  constructor(private readonly o: HostAsksOptions) {}

  /** The asks waiting, oldest first (sent again to a client that attaches). */
  get pending(): AskPush[] {
    return [...this.#open.values()].map((a) => a.push);
  }

  /**
   * Asks the thread's clients; resolves with the first answer (null: withdrawn through `signal`). `settled` says
   * what the `settled` push carries for an answer; `then` hears who gave it, once the clients were told.
   */
  open<T>(
    requestId: string,
    push: AskPush,
    signal: AbortSignal,
    settled: (value: T | null) => Pick<SettledPush, "optionId" | "action">,
    then?: (value: T | null, by: string) => void,
  ): Promise<T | null> {
    return new Promise((resolve) => {
      const ask: OpenAsk = {
        push,
        settle: (value, by) => {
          if (this.#open.get(requestId) !== ask) return;
          this.#open.delete(requestId);
          const told = settled(value as T | null);
          this.#remember(requestId, { t: push.t, by, optionId: told.optionId });
          this.o.tell({ t: "settled", threadId: this.o.threadId, requestId, by, ...told });
          then?.(value as T | null, by);
          resolve(value as T | null);
        },
      };
      this.#open.set(requestId, ask);
      if (signal.aborted) return ask.settle(null, WITHDRAWN);
      signal.addEventListener("abort", () => ask.settle(null, WITHDRAWN), { once: true });
      this.o.send(push);
    });
  }

  /**
   * The waiting ask of kind `t` (`requestId`, or the only one of that kind), or an error: more than one of that kind
   * waits and none was named (the `ambiguous` refusal, listing them: the one the person saw is unknown), it was
   * answered already (the `answered` refusal, naming who answered first and carrying the option taken), or none is
   * waiting.
   */
  take(t: AskPush["t"], requestId?: string): OpenAsk {
    const open = [...this.#open.entries()].filter(
      ([id, a]) => a.push.t === t && (requestId === undefined || id === requestId),
    );
    if (open.length > 1) throw this.#ambiguous(t, open);
    if (open[0]) return open[0][1];
    const what = t === "question" ? "question" : "elicitation";
    const done = [...this.#settled.entries()].filter(
      ([id, s]) => s.t === t && (requestId === undefined || id === requestId),
    );
    const first = done.at(-1)?.[1];
    if (first)
      throw new HostRefusal("answered", `the ${what} was already answered by ${first.by}`, {
        optionId: first.optionId,
        by: first.by,
      });
    throw new Error(
      `thread ${this.o.threadId} has no ${what} pending${requestId === undefined ? "" : ` as ${requestId}`}`,
    );
  }

  #ambiguous(t: AskPush["t"], open: [string, OpenAsk][]): HostRefusal {
    const pending = open.map(([requestId, a]) => ({ requestId, title: askTitle(a.push) }));
    const what = t === "question" ? "questions" : "elicitations";
    return new HostRefusal(
      "ambiguous",
      `thread ${this.o.threadId} has ${open.length} ${what} pending (${pending.map((p) => p.requestId).join(", ")}), so none was answered: name the one you answer`,
      undefined,
      pending,
    );
  }

  #remember(requestId: string, settled: Settled): void {
    this.#settled.set(requestId, settled);
    if (this.#settled.size > REMEMBERED) this.#settled.delete(this.#settled.keys().next().value!);
  }
}

/** What an ask is about, in one line of the agent's text: a question's title, an elicitation's message. */
export const askTitle = (push: AskPush): string =>
  push.t === "question" ? push.question.title : push.elicitation.message;
