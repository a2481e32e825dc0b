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
import { AcpThreadsError } from "../errors";
import type { EditLedger } from "../ledger/edit-ledger";
import { planRestore, type RestorePlan } from "../ledger/restore";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadRecord } from "../model/records";
import { numberedMessages } from "./fork";

export type RewindMode = "code" | "conversation" | "both";

export interface RewindPoint {
  /** The message rewound to (a user message). */
  message: number;
  /** Its text (what an "Edit and resend" starts from). */
  text: string;
  /** The edit-ledger turn that prompt started. */
  turn: number;
  /** Where the conversation is forked: after message `forkAt` (0: before the first message). */
  forkAt: number;
}

/** The rewind point of message `n`; a usage error when it is out of range or not a user message. */
export function rewindPoint(
  threadId: string,
  { records, metadata }: { records: readonly ThreadRecord[]; metadata: Pick<ThreadMetadata, "counters"> },
  n: number,
): RewindPoint {
  const messages = numberedMessages(records);
  const m = Number.isInteger(n) ? messages[n - 1] : undefined;
  if (!m) {
    const range = messages.length ? ` (1–${messages.length}, as 'acp-threads threads show' numbers them)` : "";
    throw new AcpThreadsError(
      "usage",
      `message ${n} is out of range: thread ${threadId} has ${messages.length} message${messages.length === 1 ? "" : "s"}${range}`,
    );
  }
  if (m.role !== "user") {
    const users = messages.filter((x) => x.role === "user").map((x) => x.n);
    throw new AcpThreadsError(
      "usage",
      `message ${n} of thread ${threadId} is an agent message: rewind to one of its prompts (${users.join(", ") || "none"})`,
    );
  }
  const steered = records.filter((r) => r.kind === "user_message" && r.steered);
  const numbered = new Set(steered.slice(0, steered.length - (metadata.counters.steered ?? 0)));
  const turn = records
    .slice(0, m.index + 1)
    .filter((r) => r.kind === "user_message" && (!r.steered || numbered.has(r))).length;
  return { message: n, text: m.text, turn, forkAt: n - 1 };
}

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
  const first = ledger.read(threadId).ops.find((o) => o.type === "turn" && o.turn !== undefined && o.turn >= turn);
  if (!first) return null;
  const plan = await planRestore(ledger, threadId, { op: first.op }, read);
  return plan.items.some((i) => i.action !== "unchanged") ? plan : null;
}
