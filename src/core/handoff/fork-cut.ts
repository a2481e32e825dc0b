/**
 * Which messages a fork copies (pure, over a thread's records): messages numbered from 1 as `threads show` numbers
 * them (user and agent messages; tool calls, thoughts and errors belong to the message before them), and the cut a
 * fork at message N makes. core/handoff/fork.ts writes the fork.
 */
import { AcpThreadsError } from "../errors";
import type { ThreadRecord } from "../model/records";
import { conversation, type ConversationEntry } from "../thread/conversation";

/** The messages of a thread, numbered from 1 (`n`), with the index of the record each starts at. */
export function numberedMessages(records: readonly ThreadRecord[]): (ConversationEntry & { n: number })[] {
  return conversation(records)
    .filter((e) => e.role === "user" || e.role === "assistant")
    .map((e, i) => ({ ...e, n: i + 1 }));
}

/**
 * The records a fork at message `at` copies; throws a usage error for an index out of range. `at` 0 (an empty
 * conversation) only for a rewind to the first prompt (`allowEmpty`).
 */
export function forkCut(threadId: string, records: readonly ThreadRecord[], at: number, allowEmpty = false) {
  const messages = numberedMessages(records);
  if (!messages.length) throw new AcpThreadsError("usage", `thread ${threadId} has no messages to fork from`);
  if (!Number.isInteger(at) || at < (allowEmpty ? 0 : 1) || at > messages.length)
    throw new AcpThreadsError(
      "usage",
      `message ${at} is out of range: thread ${threadId} has ${messages.length} message${messages.length > 1 ? "s" : ""} (1–${messages.length}, as 'acp-threads threads show' numbers them)`,
    );
  const end = at === 0 ? messages[0]!.index : (messages[at]?.index ?? records.length);
  const kept = records.slice(0, end).filter((r) => !SKIPPED.has(r.kind));
  return { records: kept, atEnd: at === messages.length, messages: messages.length };
}

/** Records a fork does not copy: the fork has its own start, metadata and agent session. */
const SKIPPED: ReadonlySet<ThreadRecord["kind"]> = new Set<ThreadRecord["kind"]>([
  "thread_start",
  "meta_patch",
  "session_open",
]);
