/**
 * Messages between a front end's thread and the engine worker (engine.worker.ts; the client: worker.ts). A call
 * carries an engine request as is (plain data, checked in the worker by the engine's dispatcher); its progress and
 * reply come back by its number. Cancels go on a port of their own, which the worker can read while it is busy.
 */
import type { MessagePort } from "node:worker_threads";
import type { EngineOp, EngineProgress, EngineRequest } from "./requests";
import { AcpThreadsError, errorMessage, type ErrorCode } from "../errors";

/** The long jobs (a recall import, the compaction after it): served apart from the short requests. */
export const JOB_OPS: ReadonlySet<EngineOp> = new Set<EngineOp>(["recall.import", "recall.compact"]);

export interface EngineWorkerData {
  home: string;
  /** The port the worker hears cancels on: each message is the number of a call to cancel. */
  cancels: MessagePort;
}

export type EngineWorkerCall =
  | { t: "call"; id: number; req: EngineRequest; progress: boolean }
  /** Closes the engine (its recall index) and ends the worker (no reply). */
  | { t: "close" };

export type EngineWorkerReply =
  | { t: "reply"; id: number; reply: unknown }
  /** `code`, `details`: the engine error's (an AcpThreadsError), absent for another error. */
  | { t: "error"; id: number; message: string; code?: ErrorCode; details?: Record<string, unknown> }
  | { t: "progress"; id: number; progress: EngineProgress };

type ErrorReply = Extract<EngineWorkerReply, { t: "error" }>;

/** `err` as the reply to call `id`: an engine error keeps its code and its details as plain data (they cross over). */
export function errorReply(id: number, err: unknown): ErrorReply {
  const info = err instanceof AcpThreadsError ? { code: err.code, details: plainDetails(err.details) } : {};
  return { t: "error", id, message: errorMessage(err), ...info };
}

/** An error reply back as the error the engine threw (an AcpThreadsError with its code), or a plain Error. */
export function replyError(m: ErrorReply): Error {
  return m.code ? new AcpThreadsError(m.code, m.message, m.details) : new Error(m.message);
}

function plainDetails(details: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  try {
    return details && (JSON.parse(JSON.stringify(details)) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}
