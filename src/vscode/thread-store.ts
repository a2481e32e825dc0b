/**
 * The extension's view of the thread store and index (src/core/store, src/core/index): list past threads
 * for the sessions view, load one for the panel, and the context-menu actions.
 */
import type { PastThread } from "./thread-panels";
import type { PastThreadSummary, SessionsFilter } from "./sessions-tree";

export interface ThreadStoreFacade {
  list(filter: SessionsFilter): Promise<PastThreadSummary[]>;
  load(threadId: string): Promise<PastThread | undefined>;
  rename(threadId: string, title: string): Promise<void>;
  remove(threadId: string): Promise<void>;
  exportSnapshot(threadId: string, destPath: string): Promise<void>;
  importSnapshot(srcPath: string): Promise<string>;
  agents(): Promise<string[]>;
}

// Interim until the threads store lands.
export function openThreadStore(_home: string): ThreadStoreFacade {
  const none = async () => {
    throw new Error("The thread store is not available in this build.");
  };
  return { list: async () => [], load: async () => undefined, rename: none, remove: none, exportSnapshot: none, importSnapshot: none, agents: async () => [] };
}
