/**
 * The two-way link of a handoff: the new thread names its source in `thread_start.origin` ({kind: "handoff"}),
 * the old one lists its successors in `handedOffTo` (a metadata patch, written by whoever may write it).
 */
import { errorMessage } from "../errors";
import type { ThreadStore } from "../store/thread-store";

/**
 * Adds `toThreadId` to `fromThreadId`'s successors through `write` (the live writer's patch, when this process
 * holds the thread) or the store. Returns an error message instead of throwing: another process may hold the
 * old thread (the link then shows from the new side only until that process adds it).
 */
export function linkHandoff(
  store: ThreadStore,
  fromThreadId: string,
  toThreadId: string,
  write?: (patch: { handedOffTo: string[] }) => void,
): string | undefined {
  try {
    const current = store.read(fromThreadId).metadata.handedOffTo ?? [];
    if (current.includes(toThreadId)) return undefined;
    const patch = { handedOffTo: [...current, toThreadId] };
    if (write) write(patch);
    else store.patchMetadata(fromThreadId, patch);
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}
