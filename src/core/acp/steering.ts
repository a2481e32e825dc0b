/**
 * Steering (the ACP steering extension codex-acp 2.6 and claude-agent-acp 0.101 implement): an agent that
 * advertises `_meta.steering.supported` in its `initialize` answer takes `_session/steering {sessionId, prompt}`
 * while a turn runs and injects the message into that turn. We always opt into `idleBehavior: "promptRequired"`,
 * so an agent whose turn just ended answers `promptRequired` instead of starting a turn we would not own: the
 * message then stays queued. Never a silent interrupt: without the capability nothing is sent.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import type { AgentCapabilitiesView, AgentRuntime } from "./runtime";

export const STEERING_METHOD = "_session/steering";

/** `injected`: the running turn took the message. `promptRequired`: no turn was running (send it as a prompt). */
export type SteerOutcome = "injected" | "promptRequired";

/** Whether the agent advertised steering (`initialize` → `_meta.steering.supported: true`). */
export function steeringSupported(caps: AgentCapabilitiesView | undefined): boolean {
  const steering = caps?.meta?.steering;
  return !!steering && typeof steering === "object" && (steering as { supported?: unknown }).supported === true;
}

/** Why a message cannot be steered into this agent's turn, or undefined when it can. */
export function steeringUnavailable(runtime: AgentRuntime, agentName: string): string | undefined {
  if (!steeringSupported(runtime.getCapabilities()) || !runtime.extRequest)
    return `${agentName} does not support steering: the message stays queued until the turn ends`;
  return undefined;
}

/** Sends `prompt` into the running turn of `sessionId`; throws when the agent refused or failed it. */
export async function steerTurn(
  runtime: AgentRuntime,
  agentName: string,
  sessionId: string,
  prompt: acp.ContentBlock[],
): Promise<SteerOutcome> {
  const why = steeringUnavailable(runtime, agentName);
  if (why) throw new AcpThreadsError("usage", why);
  const res = await runtime.extRequest!<{ outcome?: unknown }>(STEERING_METHOD, {
    sessionId,
    prompt,
    _meta: { steering: { idleBehavior: "promptRequired" } },
  });
  const outcome = res && typeof res === "object" ? res.outcome : undefined;
  if (outcome === "injected" || outcome === "promptRequired") return outcome;
  // `startedNewTurn` (an agent that ignored the opt-in) or `failed`
  throw new AcpThreadsError("protocol", `${agentName} did not take the message into its turn (${String(outcome)})`);
}
