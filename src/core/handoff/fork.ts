/**
 * Forking a thread at one of its messages: a new thread holding the conversation up to and including message N
 * (numbered from 1 as `threads show` numbers them: user and agent messages; tool calls, thoughts and errors
 * belong to the message before them), whose `thread_start.origin` is `{kind: "fork", source, messageIndex}`, and
 * the source lists it in `forks`. The copy keeps the records' times; session and metadata records are not
 * copied (the fork has its own agent session: one `session/fork` made, or none, and the next turn's ladder opens
 * a new session seeded with this history).
 */
import { errorMessage } from "../errors";
import type { AgentRef, RecordInput, ThreadRecord } from "../model/records";
import type { ThreadRead, ThreadStore } from "../store/thread-store";
import { forkCut } from "./fork-cut";

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
