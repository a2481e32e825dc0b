/**
 * The engine in this process (#35 item 7): a front end's way into the engine without the thread host (the CLI's
 * `threads export` stays as fast as a file read; the window calls it too). The same dispatcher serves the host's
 * `engine` requests (core/host/host-engine.ts), so a request gives the same reply either way.
 */
import type { Logger } from "../log";
import type { Durability } from "../store/thread-handle";
import { ThreadStore } from "../store/thread-store";
import type { Engine, EngineReplies, EngineRequest } from "./requests";
import { serveEngine } from "./serve";

/**
 * The data home (and how its writes reach the disk), or the thread store this process already writes through (the
 * window's: a thread its session holds is then patched through that session's handle, as before).
 */
export type LocalEngineOptions = (
  { home: string; logger?: Logger; durability?: Durability } | { store: ThreadStore }
) & {
  /** The environment the engine's programs run with (npm, an agent's `--version`): default this process's. */
  env?: NodeJS.ProcessEnv;
};

/** The engine over the data home, served in this process. */
export function localEngine(o: LocalEngineOptions): Engine {
  const store =
    "store" in o
      ? o.store
      : new ThreadStore(o.home, {
          ...(o.logger ? { logger: o.logger } : {}),
          ...(o.durability ? { durability: o.durability } : {}),
        });
  return {
    call: async <R extends EngineRequest>(req: R, opts = {}) =>
      (await serveEngine({ store, env: o.env ?? process.env }, req, opts)) as EngineReplies[R["op"]],
  };
}
