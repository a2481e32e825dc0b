/**
 * Metadata writes from this window to a thread the thread host may hold: a rename (the panel's title edit, the
 * Sessions view's Rename), and the link a fork or a handoff adds to its source. The host writes a thread it holds
 * (its run has the file's lock, so the store's write would be refused), the store writes any other, as before.
 * A rename rejects, with nothing written, when neither could: callers show the new title only once it resolved.
 */
import { errorMessage } from "../../core/errors";
import type { HostMetaPatch } from "../../core/host/protocol";
import type { Engine } from "../../core/engine/requests";
import type { HostedThreads } from "./hosted-threads";

export interface MetaWriters {
  hosted: HostedThreads;
  /** The window's engine: its `threads.rename` writes a thread no one else holds (through its store, as before). */
  engine: Engine;
}

export function writeTitle(d: MetaWriters, threadId: string, title: string): Promise<void> {
  return writeMeta(d, threadId, { title }, async () => {
    await d.engine.call({ op: "threads.rename", threadId, title });
  });
}

/**
 * A fork or handoff the store could not list in its source (`unlinked`: why; another writer holds the source's
 * file): the host lists it when its run holds the source (it checks the link names a thread that descends from the
 * source). Resolves with why the source still does not list it (undefined: it does).
 */
export async function listInSource(
  d: MetaWriters,
  sourceId: string,
  links: Pick<HostMetaPatch, "forks" | "handedOffTo">,
  unlinked: string | undefined,
): Promise<string | undefined> {
  if (unlinked === undefined) return undefined;
  try {
    await writeMeta(d, sourceId, links, () => {
      throw new Error(unlinked); // the store's write was tried: this is its answer
    });
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

/** `patch` through the host when it holds the thread, else `store`'s write (then the host's, should it hold it). */
async function writeMeta(
  d: MetaWriters,
  threadId: string,
  patch: HostMetaPatch,
  store: () => void | Promise<void>,
): Promise<void> {
  const viaHost = () => d.hosted.patch(threadId, patch);
  if (d.hosted.holds(threadId)) {
    let refused: unknown;
    try {
      if (await viaHost()) return;
    } catch (err) {
      refused = err; // its run may have ended since the host's last status: then the store writes it
    }
    try {
      return await store();
    } catch (err) {
      throw refused ?? err;
    }
  }
  try {
    await store();
  } catch (err) {
    // a host may hold it before its status told this window: each connected host asked, none started for this
    if (!(await d.hosted.patchWhereHeld(threadId, patch))) throw err;
  }
}
