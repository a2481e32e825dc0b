/**
 * How the engine's recall requests (core/engine/serve-recall.ts) read the recall index for the CLI: nothing at all when there is no index and nothing to build one from; the
 * warm recall process when one is running for this index; else this process, which for a one-shot read (a CLI
 * query, `status`) compiles SQLite's WASM for one query only and leaves a warm process behind for the next call.
 */
import { homeLayout } from "../store/paths";
import { openRecall, recallIsEmpty, type Recall } from "./recall";
import { renderRecent, renderSearch, type TextFormat } from "./render";
import { recentNothing, type RecentOptions, type RecentResult } from "./recent";
import { searchNothing, type SearchOptions, type SearchResult } from "./search";
import { emptyStatus, type RecallStatus } from "./status";
import { oneShotWasmFlags } from "./v8-flags";
import { askWarm, startWarm, WarmError, warmTarget } from "./warm/client";
import type { WarmRequest } from "./warm/socket";

export interface RecallReader {
  search(query: string, opts: SearchOptions): Promise<SearchResult>;
  recent(opts: RecentOptions): Promise<RecentResult>;
  /** The answer as printed (the warm process renders it: no result object crosses the socket). */
  searchText(query: string, opts: SearchOptions, format: TextFormat): Promise<string>;
  recentText(opts: RecentOptions, format: TextFormat): Promise<string>;
  status(): Promise<RecallStatus>;
  close(): void;
}

/**
 * `oneShot`: this process answers one read and exits (start a warm process for the next one, compile WASM
 * cheaply); otherwise (the MCP server) it keeps its own index open once it has one.
 */
export function readerFor(home: string, env: NodeJS.ProcessEnv, opts: { oneShot: boolean }): RecallReader {
  const dbPath = homeLayout(home).recallDb;
  const target = warmTarget(dbPath, env);
  let local: Recall | undefined;
  let warmTried = false;
  let startLater = false;

  const ask = async <T>(req: WarmRequest, inProcess: (r: Recall) => T, nothing: () => T): Promise<T> => {
    if (!local && recallIsEmpty(home)) return nothing();
    if (!local && target) {
      try {
        return (await askWarm(target, req)) as T;
      } catch (err) {
        if (err instanceof WarmError) throw err; // the request itself is wrong: say so, do not retry here
        // nobody listens (or a broken server): answer here, and leave a warm process for the next call (started
        // on close, after the answer is out)
        startLater ||= opts.oneShot && !warmTried;
        warmTried = true;
      }
    }
    if (!local) {
      if (opts.oneShot) oneShotWasmFlags(env);
      local = openRecall(home);
    }
    return inProcess(local);
  };

  return {
    search: (query, o) =>
      ask(
        { op: "search", query, opts: o },
        (r) => r.search(query, o),
        () => searchNothing(query, o),
      ),
    recent: (o) =>
      ask(
        { op: "recent", opts: o },
        (r) => r.recent(o),
        () => recentNothing(o),
      ),
    searchText: (query, o, format) =>
      ask(
        { op: "search", query, opts: o, render: format },
        (r) => renderSearch(r.search(query, o), format),
        () => renderSearch(searchNothing(query, o), format),
      ),
    recentText: (o, format) =>
      ask(
        { op: "recent", opts: o, render: format },
        (r) => renderRecent(r.recent(o), format),
        () => renderRecent(recentNothing(o), format),
      ),
    status: () =>
      ask(
        { op: "status" },
        (r) => r.status(),
        () => emptyStatus(dbPath),
      ),
    close: () => {
      local?.close();
      if (startLater && target) startWarm(target, env);
      startLater = false;
    },
  };
}

/** A reader over an index this process keeps open (the engine worker's): no warm process, nothing to close. */
export function indexReader(r: Recall): RecallReader {
  return {
    search: async (query, o) => r.search(query, o),
    recent: async (o) => r.recent(o),
    searchText: async (query, o, format) => renderSearch(r.search(query, o), format),
    recentText: async (o, format) => renderRecent(r.recent(o), format),
    status: async () => r.status(),
    close: () => {},
  };
}
