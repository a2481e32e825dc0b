/**
 * Forking a thread at one of its messages: a new thread holding the conversation up to and including message N
 * (numbered from 1 as `threads show` numbers them: user and agent messages; tool calls, thoughts and errors
 * belong to the message before them), whose `thread_start.origin` is `{kind: "fork", source, messageIndex}`, and
 * the source lists it in `forks`. The copy keeps the records' times; session and metadata records are not
 * copied (the fork has its own agent session: one `session/fork` made, or none, and the next turn's ladder opens
 * a new session seeded with this history).
 */
import { AcpThreadsError, errorMessage } from "../errors";
import type { ThreadMetadata } from "../model/metadata";
import type { AgentRef, RecordInput, ThreadRecord } from "../model/records";
import type { ThreadRead, ThreadStore } from "../store/thread-store";
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

const SKIPPED = new Set<ThreadRecord["kind"]>(["thread_start", "meta_patch", "session_open"]);

export interface ForkInput {
  /** The agent the fork runs (default: the source's). */
  agent?: AgentRef;
  /** The agent session `session/fork` made, if one was. */
  agentSessionId?: string;
  /** The fork's title (default: "Fork of <source> [at message N]"). */
  title?: string;
  /** A rewind to the first prompt forks an empty conversation (`at` 0). */
  allowEmpty?: boolean;
  /** The source as the caller already read it (the extension host reads it off its thread). */
  source?: Pick<ThreadRead, "metadata" | "records">;
}

/** Writes the fork; returns its id and, when the source could not list it (another process holds it), why. */
export function writeFork(store: ThreadStore, sourceId: string, at: number, input: ForkInput = {}) {
  const { metadata, records } = input.source ?? store.read(sourceId);
  const cut = forkCut(sourceId, records, at, input.allowEmpty);
  const handle = store.create({
    agent: input.agent ?? metadata.agent,
    mode: metadata.mode,
    cwd: metadata.cwd,
    repoRoot: metadata.repoRoot,
    gitHead: metadata.gitHead,
    title: input.title ?? `Fork of ${metadata.title ?? sourceId}${cut.atEnd ? "" : ` at message ${at}`}`,
    ...(input.agentSessionId ? { agentSessionId: input.agentSessionId } : {}),
    origin: { kind: "fork", source: sourceId, messageIndex: at },
  });
  try {
    handle.appendMany(cut.records as RecordInput[]);
    const count = (kind: ThreadRecord["kind"]) => cut.records.filter((r) => r.kind === kind).length;
    const steered = cut.records.filter((r) => r.kind === "user_message" && r.steered).length;
    const agentMessages = new Set(cut.records.flatMap((r) => (r.kind === "agent_message" ? [r.messageId] : [])));
    handle.patch({
      // the fork's title tells it from its source (an agent naming the resumed session would name both alike, #37)
      titleByUser: true,
      status: "idle",
      counters: {
        turns: count("turn_end"),
        userMessages: count("user_message"),
        agentMessages: agentMessages.size,
        toolCalls: count("tool_call"),
        // the fork's next prompt is the ledger turn after the prompts it holds
        ...(steered ? { steered } : {}),
      },
    });
  } finally {
    handle.close();
  }
  let unlinked: string | undefined;
  try {
    store.patchMetadata(sourceId, { forks: [...(metadata.forks ?? []), handle.threadId] });
  } catch (err) {
    unlinked = errorMessage(err);
  }
  return { threadId: handle.threadId, atEnd: cut.atEnd, ...(unlinked ? { unlinked } : {}) };
}

/** Where a thread was forked from, or null. */
export function forkedFrom(m: Pick<ThreadMetadata, "origin">): { threadId: string; messageIndex?: number } | null {
  const o = m.origin;
  return o?.kind === "fork" && o.source ? { threadId: o.source, messageIndex: o.messageIndex } : null;
}
