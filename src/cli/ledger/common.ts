/** Shared by `changes`, `restore` and `rewind`: the thread named on the command line and its store. */
import type { ThreadMetadata } from "../../core/model/metadata";
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import type { CliIO } from "../io";

export interface ThreadContext {
  store: ThreadStore;
  threadId: string;
  metadata: ThreadMetadata;
}

/** The data home's thread `idOrPrefix` (a unique prefix is enough, like git). */
export function threadOf(io: CliIO, idOrPrefix: string): ThreadContext {
  const store = new ThreadStore(resolveHome(io.env));
  const threadId = store.resolveId(idOrPrefix);
  return { store, threadId, metadata: store.read(threadId).metadata };
}

export const json = (io: CliIO, value: unknown) => void io.stdout.write(JSON.stringify(value, null, 2) + "\n");
