/** The shapes the engine's dispatcher (serve.ts) and its areas (serve-*.ts) share. */
import type { ThreadStore } from "../store/thread-store";
import type { EngineOp, EngineProgress, EngineReplies, EngineRequest } from "./requests";

/** What the engine serves requests with: the data home's thread store, and the environment its programs run with. */
export interface EngineContext {
  store: ThreadStore;
  env: NodeJS.ProcessEnv;
}

export type Report = (p: EngineProgress) => void;

/** One area's handlers: for each of its ops, the request in, the reply out. */
export type Handlers<O extends EngineOp> = {
  [K in O]: (
    ctx: EngineContext,
    req: Extract<EngineRequest, { op: K }>,
    report: Report,
    signal?: AbortSignal,
  ) => EngineReplies[K] | Promise<EngineReplies[K]>;
};
