/**
 * `ThreadSession.steer`: a follow-up sent into the running turn (acp/steering.ts) is recorded as a steered user
 * message (`user_message.steered`), then emitted, so the transcript shows it where the agent took it.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { randomUUID } from "node:crypto";
import { steerTurn, type SteerOutcome } from "../acp/steering";
import type { AgentRuntime } from "../acp/runtime";
import type { ContextRef } from "../model/context";
import type { RuntimeEvent } from "../model/events";
import type { LiveThread } from "../thread/live-thread";
import { promptText, type PromptContent } from "../thread/prompt-text";

export interface SteerOptions {
  /** What the thread records as the message (default: the prompt's text). */
  recordText?: string;
  recordContext?: readonly ContextRef[];
}

export interface SteerTarget {
  runtime: AgentRuntime;
  agentName: string;
  sessionId: string;
  live: LiveThread;
  turnRunning: boolean;
}

/** `promptRequired` (no turn running, nothing recorded): the caller sends the message as a prompt instead. */
export async function steerSession(
  target: SteerTarget,
  prompt: PromptContent,
  opts: SteerOptions,
  emit: (e: RuntimeEvent) => void,
): Promise<SteerOutcome> {
  if (!target.turnRunning) return "promptRequired";
  const blocks: acp.ContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : [...prompt];
  const outcome = await steerTurn(target.runtime, target.agentName, target.sessionId, blocks);
  if (outcome !== "injected") return outcome;
  const text = opts.recordText ?? promptText(prompt);
  const messageId = randomUUID();
  if (!target.live.handle.closed) target.live.steered(text, messageId, opts.recordContext);
  const context = opts.recordContext?.length ? { context: [...opts.recordContext] } : {};
  emit({ type: "user_text", text, messageId, steered: true, ...context });
  return outcome;
}
