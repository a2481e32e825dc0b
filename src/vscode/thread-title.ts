/**
 * A thread's display title: the one name the tab, the panel header, the sessions tree, the status bar and the
 * line-provenance hover all show (issue #27). The live session's title when it runs (the agent's own name for
 * the thread once it gave one, else the user's rename, else the first prompt's first line, @-mentions kept),
 * else the stored thread's; always one line, secrets redacted, at most 80 characters.
 */
import { titleFrom } from "../core/thread/title";

export const UNTITLED = "(untitled)";

/** The shown form of a raw title (a first prompt, an agent's title, a rename): one line, ≤ 80 characters. */
export function displayTitle(raw: string | null | undefined, fallback = UNTITLED): string {
  return titleFrom(raw ?? "") ?? fallback;
}

/**
 * The title of thread `threadId`, live or stored; undefined for a thread that does not exist. `stored`: the stored
 * thread's metadata (undefined when there is no such thread; it may throw for a file it cannot read).
 */
export function threadTitleOf(
  threadId: string,
  deps: {
    live(threadId: string): { title: string } | undefined;
    stored(threadId: string): { title: string | null } | undefined;
  },
): string | undefined {
  const live = deps.live(threadId);
  if (live) return displayTitle(live.title);
  try {
    const stored = deps.stored(threadId);
    return stored && displayTitle(stored.title);
  } catch {
    return undefined;
  }
}
