/**
 * A rename from this window (the panel's title edit, the Sessions view's Rename): the thread host writes a thread it
 * holds (its run has the file's lock, so the store's write would be refused), the store writes any other, as
 * before. Rejects, with nothing written, when neither could: callers show the new title only once it resolved.
 */
import type { ThreadStore } from "../../core/store/thread-store";
import type { HostedThreads } from "./hosted-threads";

export interface TitleWriters {
  hosted: HostedThreads;
  threads: ThreadStore;
}

export async function writeTitle(d: TitleWriters, threadId: string, title: string): Promise<void> {
  const viaHost = () => d.hosted.rename(threadId, title);
  if (d.hosted.holds(threadId)) {
    let refused: unknown;
    try {
      if (await viaHost()) return;
    } catch (err) {
      refused = err; // its run may have ended since the host's last status: then the store writes it
    }
    try {
      return d.threads.rename(threadId, title);
    } catch (err) {
      throw refused ?? err;
    }
  }
  try {
    d.threads.rename(threadId, title);
  } catch (err) {
    // the host may hold it before its status told this window: asked only when connected, never started for this
    if (!d.hosted.link.connected || !(await viaHost().catch(() => false))) throw err;
  }
}
