/**
 * The engine in this process (#35 item 7): a front end's way into the engine without the thread host (the CLI's
 * `threads export` stays as fast as a file read; the window calls it too). The same dispatcher serves the host's
 * `engine` requests (core/host/host-engine.ts), so a request gives the same reply either way.
 */
import type { Logger } from "../log";
import { readerFor, type RecallReader } from "../recall/reader";
import { openRecall, type Recall } from "../recall/recall";
import type { Durability } from "../store/thread-handle";
import { ThreadStore } from "../store/thread-store";
import type { Engine, EngineReplies, EngineRequest } from "./requests";
import { serveEngine } from "./serve";
import type { EngineContext } from "./serve-types";

/**
 * The data home (and how its writes reach the disk), or the thread store this process already writes through (the
 * window's: a thread its session holds is then patched through that session's handle, as before).
 */
export type LocalEngineOptions = (
  { home: string; logger?: Logger; durability?: Durability } | { store: ThreadStore }
) & {
  /** The environment the engine's programs run with (npm, an agent's `--version`): default this process's. */
  env?: NodeJS.ProcessEnv;
  /**
   * The recall requests' reader, kept until `close`: `env` (the warm recall process's settings), `oneShot` (this
   * process answers one read and exits: the CLI's query; else it keeps its index open: the MCP server).
   */
  recall?: { env: NodeJS.ProcessEnv; oneShot: boolean };
  /** The registry the registry requests read (the CLI's --registry, the editor's setting): default the engine's. */
  registryUrl?: () => string;
  /**
   * The engine worker's (core/engine/worker.ts): the recall requests open the index in this process and keep it
   * until `close` (no warm process); `poll` fetches the cancels that came while the worker was busy.
   */
  recallIndex?: { poll?: () => void };
};

/** The engine in this process; `close` ends what it keeps open (the recall reader, the recall index). */
export interface LocalEngine extends Engine {
  close(): void;
}

/** The engine over the data home, served in this process. */
export function localEngine(o: LocalEngineOptions): LocalEngine {
  const store =
    "store" in o
      ? o.store
      : new ThreadStore(o.home, {
          ...(o.logger ? { logger: o.logger } : {}),
          ...(o.durability ? { durability: o.durability } : {}),
        });
  let reader: RecallReader | undefined;
  let index: Recall | undefined;
  const { recall, recallIndex } = o;
  const ctx: EngineContext = {
    store,
    env: o.env ?? process.env,
    ...(recall ? { recall: () => (reader ??= readerFor(store.home, recall.env, recall)) } : {}),
    ...(o.registryUrl ? { registryUrl: o.registryUrl } : {}),
    ...(recallIndex ? { index: () => (index ??= openRecall(store.home)), poll: recallIndex.poll } : {}),
  };
  return {
    call: async <R extends EngineRequest>(req: R, opts = {}) =>
      (await serveEngine(ctx, req, opts)) as EngineReplies[R["op"]],
    close: () => {
      reader?.close();
      reader = undefined;
      index?.close();
      index = undefined;
    },
  };
}
