/**
 * The engine requests of recall (#35 item 7): searching past agent sessions (`acp-threads recall`, the MCP
 * server's `recall` and `recall_recent` tools) and the index's status (`acp-threads status`). Joined into the
 * engine's union in requests.ts; served by serve-recall.ts, which asks the warm recall process first when one runs
 * (its own socket: core/recall/warm), else reads the index in the engine's process.
 *
 * A query is passed as typed (FTS syntax, quotes and `a|b` included) to the same search as before. The scope is the
 * repository of `cwd` (an absolute folder; a worktree's main repository), or every repository with `global`.
 */
import type { RecentResult } from "../recall/recent";
import type { SearchResult } from "../recall/search";
import type { RecallStatus } from "../recall/status";

/** Where a recall request looks: the repository of `cwd`, or (`global`) every repository. */
interface RecallScope {
  cwd?: string;
  global?: boolean;
  /** First bring our own threads into the index (incremental: unchanged files are skipped). */
  sync?: boolean;
}

/** A search's options (core/recall/search.ts `SearchOptions`): counts, each 0 or more; absent: the default. */
interface RecallSearch extends RecallScope {
  query: string;
  allTerms?: boolean;
  limit?: number;
  windowsPerSession?: number;
  before?: number;
  after?: number;
  budgetChars?: number;
  messageChars?: number;
  toolMessageChars?: number;
}

/** How an answer is printed (rendered where it is read: the warm process sends text, not a result). */
export type RecallFormat = "markdown" | "json";

export type RecallRequest =
  /** Ranked sessions with evidence windows for `query`. */
  | ({ op: "recall.search" } & RecallSearch)
  /** The same, as `acp-threads recall` prints it in `format`. */
  | ({ op: "recall.searchText"; format: RecallFormat } & RecallSearch)
  /** The latest sessions in scope with their first user message. */
  | ({ op: "recall.recent"; limit?: number } & RecallScope)
  /** The same, as `acp-threads recall --recent` prints it in `format`. */
  | ({ op: "recall.recentText"; limit?: number; format: RecallFormat } & RecallScope)
  /** The index: its file, size, and counts per source. */
  | { op: "recall.status" };

export interface RecallReplies {
  "recall.search": SearchResult;
  "recall.searchText": { text: string };
  "recall.recent": RecentResult;
  "recall.recentText": { text: string };
  "recall.status": RecallStatus;
}
