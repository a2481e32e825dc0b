/** The shapes the engine's dispatcher (serve.ts) and its areas (serve-*.ts) share. */
import type { EditLedger } from "../ledger/edit-ledger";
import type { EditorFiles } from "../ports";
import type { Recall } from "../recall/recall";
import type { RecallReader } from "../recall/reader";
import type { ThreadStore } from "../store/thread-store";
import type { EngineOp, EngineProgress, EngineReplies, EngineRequest } from "./requests";

/**
 * What the engine serves requests with: the data home's thread store, the environment its programs run with, and the
 * recall reader it keeps (if any).
 */
export interface EngineContext {
  store: ThreadStore;
  env: NodeJS.ProcessEnv;
  recall?: () => RecallReader;
  /** The registry the front end in this process reads (its flag or setting); absent: the engine's env and home. */
  registryUrl?: () => string;
  /**
   * The recall index this process keeps open and reads itself (the engine worker: engine.worker.ts), instead of a
   * reader that may ask the warm recall process.
   */
  index?: () => Recall;
  /** Fetches the cancels that came while this thread was busy (the engine worker; cancel.ts). */
  poll?: () => void;
  /** The edit ledger this process writes (the window's live one): the ledger requests go through it. */
  ledger?: () => EditLedger;
  /** The editor a restore plans against and writes through (the window's; ports.ts). */
  editor?: EditorFiles;
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
