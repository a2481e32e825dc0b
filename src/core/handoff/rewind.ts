/**
 * Rewinding a thread to one of its user messages (Claude Code's rewind, "Edit and resend"): message N (numbered
 * as `threads show` and `fork --at` number them) is a prompt; rewinding to it can
 * - *code*: put the files back to before that prompt's turn (an edit-ledger restore: recorded, undoable, refusing
 *   to overwrite a file changed since unless forced),
 * - *conversation*: fork the thread before that prompt (the conversation up to message N−1), the edited prompt
 *   being the fork's next prompt,
 * - *both*.
 * The ledger numbers a thread's turns by its prompts (turn K starts with the K-th prompt; a message steered into a
 * running turn is part of that turn), so the turn of message N is the count of prompts up to it. Before stop 33 a
 * steered message took a number too: those (the steered messages `counters.steered` does not count, all older than
 * the counted ones) still count, so an old thread's prompt finds the ledger turn it was recorded as.
 */
import type { EditLedger } from "../ledger/edit-ledger";
import { planRestore, type RestorePlan } from "../ledger/restore";

/**
 * The restore that puts the files back to before turn `turn`: the first ledger operation of that turn or a later
 * one; null when the thread changed no file from that turn on (nothing to restore).
 */
export async function planRewindRestore(
  ledger: EditLedger,
  threadId: string,
  turn: number,
  read?: (path: string) => Promise<string | null>,
): Promise<RestorePlan | null> {
  const first = (await ledger.readAsync(threadId)).ops.find(
    (o) => o.type === "turn" && o.turn !== undefined && o.turn >= turn,
  );
  if (!first) return null;
  const plan = await planRestore(ledger, threadId, { op: first.op }, read);
  return plan.items.some((i) => i.action !== "unchanged") ? plan : null;
}
