/**
 * A prompt turn's events as ThreadSession (session.ts) takes them: each one recorded into the thread, shown to the
 * edit ledger and emitted, until the turn ends; the turn's result is the `done` (or the error) it ended with.
 */
import { errorMessage } from "../errors";
import type { RuntimeEvent } from "../model/events";
import type { TurnResult } from "./types";

/** Where a turn's events go. */
export interface TurnEvents {
  /** Into the thread (every event but `done`, and an error the turn threw). */
  record(event: RuntimeEvent): void;
  /** To the edit ledger (every event the turn gave). */
  observe(event: RuntimeEvent): void;
  /** To the session's listeners. */
  emit(event: RuntimeEvent): void;
  /** The turn ended with a `done`: the agent took the prompt (its seed was sent). */
  done(): void;
}

/** Runs the turn `start` begins to its end (it never throws: an error is the result); its result. */
export async function takeTurn(start: () => AsyncIterable<RuntimeEvent>, to: TurnEvents): Promise<TurnResult> {
  let result: TurnResult = { stopReason: "error", error: "the turn ended without a result" };
  try {
    for await (const event of start()) {
      if (event.type === "done") {
        result = { stopReason: event.stopReason, ...(event.usage ? { usage: event.usage } : {}) };
        to.done();
      } else if (event.type === "error") result = { stopReason: "error", error: event.message };
      if (event.type !== "done") to.record(event);
      to.observe(event);
      to.emit(event);
    }
  } catch (err) {
    const error: RuntimeEvent = { type: "error", message: errorMessage(err) };
    result = { stopReason: "error", error: error.message };
    to.record(error);
    to.emit(error);
  }
  return result;
}
