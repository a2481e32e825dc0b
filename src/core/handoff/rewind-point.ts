/**
 * The point a rewind goes back to (pure, over a thread's records; core/handoff/rewind.ts has the restore): message
 * N's text, the edit-ledger turn its prompt started, and where the conversation is forked (see rewind.ts for how
 * turns are numbered).
 */
import { AcpThreadsError } from "../errors";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadRecord } from "../model/records";
import { numberedMessages } from "./fork-cut";

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
