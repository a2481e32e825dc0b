/** Small helpers of ThreadSession (session.ts) kept out of its file. */
import type { RuntimeEvent } from "../model/events";
import { background } from "../util/unexpected";

/** Lets go of the folder baseline the edit ledger prepared for a new thread. */
export function releaseBaseline(baseline: Promise<{ dispose(): void }> | undefined): void {
  if (baseline)
    background(
      baseline.then((lease) => lease.dispose()),
      "releasing the folder baseline",
    );
}

/** The events of a turn cancelled before its prompt was sent. */
export async function* cancelledTurn(): AsyncIterable<RuntimeEvent> {
  yield { type: "done", stopReason: "cancelled" };
}
