/**
 * Messages between a front end's thread and the engine worker (engine.worker.ts; the client: worker.ts). A call
 * carries an engine request as is (plain data, checked in the worker by the engine's dispatcher); its progress and
 * reply come back by its number. Cancels go on a port of their own, which the worker can read while it is busy.
 */
import type { MessagePort } from "node:worker_threads";
import type { EngineProgress, EngineRequest } from "./requests";
import type { ErrorCode } from "../errors";

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
