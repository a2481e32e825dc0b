/**
 * `session/fork` (unstable in ACP v1; codex-acp 2.6 and claude-agent-acp 0.101 advertise
 * `sessionCapabilities.fork`): the agent copies a session of its own into a new one. It forks the whole
 * session, so a fork at an earlier message does not use it (the new thread is seeded with the history up to that
 * message instead: see handoff/fork.ts).
 */
import { AcpThreadsError } from "../errors";
import type { AgentCapabilitiesView, AgentRuntime } from "./runtime";

export const FORK_METHOD = "session/fork";

export function forkSupported(caps: AgentCapabilitiesView | undefined): boolean {
  const session = caps?.agentCapabilities.sessionCapabilities as Record<string, unknown> | null | undefined;
  return !!session?.fork; // unstable: not in the stable schema's types
}

/** Asks the agent to fork `sessionId` (started if need be); returns the new session id. */
export async function forkAgentSession(
  runtime: Required<Pick<AgentRuntime, "extRequest">> & { start(): Promise<AgentCapabilitiesView> },
  sessionId: string,
  cwd: string,
): Promise<string> {
  const caps = await runtime.start();
  if (!forkSupported(caps)) throw new AcpThreadsError("protocol", "the agent does not offer session/fork");
  const res = await runtime.extRequest<{ sessionId?: unknown }>(FORK_METHOD, { sessionId, cwd, mcpServers: [] });
  if (typeof res?.sessionId !== "string" || !res.sessionId)
    throw new AcpThreadsError("protocol", "the agent answered session/fork without a session id");
  return res.sessionId;
}
