/**
 * The turn loop of `acp-threads run`: one session, one prompt turn per PROMPT, with a run timeout and
 * Ctrl-C both handled as session/cancel → wait a little for the agent to stop → close.
 *
 * Exit code 5 (permission denied) means: a permission request in some turn was answered "no" by the policy
 * (not by a person, not a cancel) and that turn ended with stopReason `cancelled` or `refusal`, i.e. the
 * denial stopped the agent's work (codex-acp aborts the turn on a rejected patch).
 */
import type { AcpAgentRuntime } from "../core/acp/agent-runtime";
import { errorMessage } from "../core/errors";
import type { PermissionDecision } from "../core/model/events";
import { EXIT } from "./io";
import type { RunSummary, TurnOutput } from "./output/turn-output";

export const CANCEL_GRACE_MS = 3_000;

export interface RunTurnsOptions {
  prompts: string[];
  output: TurnOutput;
  signal: AbortSignal;
  timeoutMs?: number;
}

export async function runTurns(rt: AcpAgentRuntime, opts: RunTurnsOptions): Promise<RunSummary> {
  const summary: RunSummary = {
    type: "summary",
    stopReason: null,
    sessionId: null,
    turns: 0,
    toolCalls: 0,
    permissions: [],
    agent: { id: "", name: null, version: null },
    exitCode: EXIT.ok,
  };
  const stop = new AbortController();
  let why: "timeout" | "interrupted" | undefined;
  const halt = (reason: "timeout" | "interrupted") => {
    why ??= reason;
    stop.abort();
  };
  const timer = opts.timeoutMs ? setTimeout(() => halt("timeout"), opts.timeoutMs) : undefined;
  const onSignal = () => halt("interrupted");
  opts.signal.addEventListener("abort", onSignal, { once: true });
  if (opts.signal.aborted) halt("interrupted");
  try {
    const opened = await untilStopped(rt.ensureSession(), stop.signal);
    summary.sessionId = opened.sessionId;
    const toolIds = new Set<string>();
    for (const [i, prompt] of opts.prompts.entries()) {
      if (stop.signal.aborted) break;
      const turn = i + 1;
      summary.turns = turn;
      const denied: PermissionDecision[] = [];
      let errored: string | undefined;
      const events = rt.runTurn(opened.sessionId, prompt, { signal: stop.signal });
      await drainWithGrace(events, stop.signal, (event) => {
        opts.output.event(event, turn);
        if (event.type === "tool_call") toolIds.add(event.toolCall.toolCallId);
        if (event.type === "permission") {
          summary.permissions.push(event.decision);
          if (event.decision.decidedBy === "policy" && !event.decision.optionKind?.startsWith("allow"))
            denied.push(event.decision);
        }
        if (event.type === "done") summary.stopReason = event.stopReason;
        if (event.type === "error") errored = event.message;
      });
      summary.toolCalls = toolIds.size;
      if (why) break;
      if (errored) {
        summary.error = errored;
        summary.exitCode = EXIT.error;
        break;
      }
      if (denied.length && (summary.stopReason === "cancelled" || summary.stopReason === "refusal")) {
        summary.exitCode = EXIT.permissionDenied;
        break;
      }
    }
  } catch (err) {
    summary.error = errorMessage(err);
    summary.exitCode = EXIT.error;
  } finally {
    clearTimeout(timer);
    opts.signal.removeEventListener("abort", onSignal);
    const info = rt.getCapabilities()?.agentInfo;
    summary.agent = { id: "", name: info?.name ?? null, version: info?.version ?? null };
  }
  if (why === "timeout") summary.exitCode = EXIT.timeout;
  if (why === "interrupted") summary.exitCode = EXIT.interrupted;
  return summary;
}

/** Rejects as soon as `signal` aborts (the runtime keeps starting in the background and is closed later). */
function untilStopped<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("stopped"));
  return Promise.race([
    p,
    new Promise<never>((_, reject) =>
      signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true }),
    ),
  ]);
}

/** Consumes a turn; once `signal` aborts (the runtime then sends session/cancel), waits at most the grace. */
async function drainWithGrace<T>(
  events: AsyncIterable<T>,
  signal: AbortSignal,
  onEvent: (e: T) => void,
): Promise<void> {
  const drained = (async () => {
    for await (const e of events) onEvent(e);
  })();
  const grace = new Promise<void>((resolve) => {
    const arm = () => setTimeout(resolve, CANCEL_GRACE_MS).unref();
    if (signal.aborted) arm();
    else signal.addEventListener("abort", arm, { once: true });
  });
  await Promise.race([drained, grace]);
}
