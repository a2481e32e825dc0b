/** The thread host's typed refusals (protocol.ts `error` replies with a `code`). */
import { AcpThreadsError } from "../errors";
import type { EngineErrorInfo } from "./protocol-engine";

/**
 * Why the host refused a request, where a client acts on the reason rather than only showing it (an `error`
 * reply's `code`): `run_ending`: a prompt came as the thread's run was ending (its last turn done, or stopped);
 * `not_held`: the host does not hold the thread (its run ended). Either way the thread takes a prompt in a new run.
 * `held`: a `run` for a thread the host holds (its run started by another client): the thread takes a `prompt` in it.
 * `exec_not_hosted`: the host runs no such exec run (it ended, or another process owns it: `send` asks the registry).
 * `no_key`: the connection's first request was not a hello with the host's key (store/door-key.ts); it is closed.
 * `answered`: an answer to a question or elicitation another client answered first; the refusal carries who and
 * what (`answered`), so the loser's prompt shows the winner's answer, whatever it has heard of the `settled` push.
 * `ambiguous`: an answer that names no question while more than one of its kind is pending: which one the person
 * saw is unknown, so none is answered; the refusal lists them (`pending`) for the client to ask again naming one.
 * `start_failed`: a `run` whose session never opened (its agent's command is missing, no Node fits it, it exited
 * during initialize, its sandbox could not be made …): the message is why, as a window session's failed start says
 * it; an editor shows the thread as failed with it (an older host sends no code: the client shows the error).
 */
export type HostErrorCode =
  "run_ending" | "not_held" | "held" | "exec_not_hosted" | "no_key" | "answered" | "ambiguous" | "start_failed";

/**
 * A refusal or an error (protocol.ts `HostReply`). `answered` (code `answered`): the answer that won, for the client
 * whose answer lost. `pending` (code `ambiguous`): the questions waiting, for a client whose answer named none.
 * `engine`: an engine request's error (protocol-engine.ts), its code kept; with `start_failed`, the start error's
 * code and details (an older host sends none: the client has the message only).
 */
export interface HostErrorReply {
  t: "error";
  id: number;
  message: string;
  code?: HostErrorCode;
  answered?: FirstAnswer;
  pending?: PendingAsk[];
  engine?: EngineErrorInfo;
}

/** Who answered a question first and with which option (null: withdrawn, or an elicitation's). */
export interface FirstAnswer {
  optionId: string | null;
  by: string;
}

/** A question (or elicitation) waiting, as an `ambiguous` refusal lists it: its id and title (the agent's text). */
export interface PendingAsk {
  requestId: string;
  title: string;
}

/**
 * A refusal a client acts on: thrown by the host's handler, carried by the `error` reply's `code`, and thrown again
 * as such by the client's `request`, so a client tells it by its code, never by its wording (the message is the
 * CLI's, for a person at a terminal).
 */
export class HostRefusal extends AcpThreadsError {
  constructor(
    readonly reason: HostErrorCode,
    message: string,
    /** `answered`: the answer that won. */
    readonly answered?: FirstAnswer,
    /** `ambiguous`: the asks waiting, oldest first. */
    readonly pending?: PendingAsk[],
    /** `start_failed`: the start error's code and details (no Node fits: `details.nodeRuntime`), as the error's. */
    readonly engine?: EngineErrorInfo,
  ) {
    super("protocol", message, engine?.details);
  }
}

/** The refusal's code (undefined: another error). */
export const refusalCode = (err: unknown): HostErrorCode | undefined =>
  err instanceof HostRefusal ? err.reason : undefined;

/**
 * What an `error` reply carries of a refusal besides its message: its code, the answer that won, the asks waiting,
 * the start error's code and details.
 */
export const refusalReply = (err: unknown): Omit<HostErrorReply, "t" | "id" | "message"> =>
  err instanceof HostRefusal
    ? {
        code: err.reason,
        ...(err.answered ? { answered: err.answered } : {}),
        ...(err.pending ? { pending: err.pending } : {}),
        ...(err.engine ? { engine: err.engine } : {}),
      }
    : {};

/** The thread the host holds as `id`, or the `not_held` refusal. */
export function heldThread<T>(threads: ReadonlyMap<string, T>, id: string): T {
  const t = threads.get(id);
  if (!t) throw new HostRefusal("not_held", `the host does not hold thread ${id}`);
  return t;
}

/**
 * A run for a thread the host holds already, in a run that takes prompts, is refused (`held`): one writer per thread,
 * its prompts go to that run. One that is ending is let through: the next run follows it, as before.
 */
export function refuseHeld(
  threads: ReadonlyMap<string, { state: string; control: { ending?(): boolean } }>,
  id: string | undefined,
): void {
  const t = id === undefined ? undefined : threads.get(id);
  if (t && t.state !== "ended" && t.control.ending?.() !== true)
    throw new HostRefusal(
      "held",
      `the host runs thread ${id} already: 'acp-threads run --thread ${id} PROMPT' queues a prompt there`,
    );
}
