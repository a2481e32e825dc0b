/**
 * The engine in this process (#35 item 7): a front end's way into the engine without the thread host (the CLI's
 * `threads export` stays as fast as a file read; the window calls it too). The same dispatcher serves the host's
 * `engine` requests (core/host/host-engine.ts), so a request gives the same reply either way.
 */
import type { EditLedger } from "../ledger/edit-ledger";
import type { Logger } from "../log";
import type { EditorFiles } from "../ports";
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
  /**
   * The edit ledger this process already writes (the window's live one, read when a request comes): the ledger
   * requests read and restore through it instead of opening their own, so a ledger has one writer in a process.
   */
  ledger?: () => EditLedger;
  /**
   * The editor the files are shown in (the window's): `ledger.restore` plans against unsaved buffers (an unsaved
   * one counts as changed since), writes through the editor, and the window's own restore of a thread its
   * session or the thread host runs is not refused as held (`heldBy`), as before.
   */
  editor?: EditorFiles;
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
    ...(o.ledger ? { ledger: o.ledger } : {}),
    ...(o.editor ? { editor: o.editor } : {}),
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
