/**
 * Errors that say what happened to the agent: it died during `initialize`, or mid-turn (the SDK only
 * reports "connection closed"); both carry the agent's last stderr lines.
 */
import { AcpThreadsError, errorMessage } from "../errors";
import type { AgentSpec } from "../model/agent";
import type { AgentExit } from "./spawn";
import type { AgentTransport } from "./transport";

const EXIT_WAIT_MS = 300;

function stderrBlock(lines: string[], max: number): { text: string; tail: string[] } {
  const tail = lines.filter((l) => l.trim()).slice(-max);
  return { tail, text: tail.length ? `\nlast stderr lines:\n  ${tail.join("\n  ")}` : "\n(no stderr output)" };
}

/** The exit status if the agent exits within a moment, else undefined. */
export function exitSoon(transport: AgentTransport): Promise<AgentExit | undefined> {
  return Promise.race([
    transport.exited,
    new Promise<undefined>((r) => setTimeout(() => r(undefined), EXIT_WAIT_MS).unref()),
  ]);
}

export function exitedDuringInitialize(
  spec: AgentSpec,
  cause: unknown,
  exit: AgentExit | undefined,
  stderrTail: string[],
): AcpThreadsError {
  const { tail, text } = stderrBlock(stderrTail, 20);
  const how = exit
    ? `exited during initialize (code ${exit.code}, signal ${exit.signal})`
    : `failed to initialize: ${errorMessage(cause)}`;
  return new AcpThreadsError(
    exit ? "agent_exited" : "protocol",
    `${spec.displayName} (${spec.command}) ${how}${text}`,
    { stderrTail: tail },
    { cause },
  );
}

/**
 * A JSON-RPC error's message plus the reason agents put in `data` (codex-acp answers "Internal error" with the
 * model API's error in `data.message`; claude-agent-acp uses `data.details`).
 */
export function rpcErrorText(err: unknown): string {
  const base = errorMessage(err);
  const data = err && typeof err === "object" ? (err as { data?: unknown }).data : undefined;
  if (!data || typeof data !== "object") return base;
  const { message, details } = data as { message?: unknown; details?: unknown };
  const detail = [message, details].find((v): v is string => typeof v === "string" && v.trim() !== "");
  return detail && !base.includes(detail) ? `${base}: ${detail}` : base;
}

/** A turn failure: when the agent is gone, its exit and stderr explain it better than "connection closed". */
export async function explainTurnFailure(
  err: unknown,
  spec: AgentSpec,
  transport: AgentTransport,
): Promise<{ message: string; code?: number | string }> {
  const exit = await exitSoon(transport);
  if (!exit) return { message: rpcErrorText(err), code: (err as { code?: number | string }).code };
  const { text } = stderrBlock(transport.stderrTail(), 10);
  return {
    message: `${spec.displayName} exited (code ${exit.code}, signal ${exit.signal})${text}`,
    code: "agent_exited",
  };
}
