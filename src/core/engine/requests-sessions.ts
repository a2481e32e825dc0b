/**
 * The engine's requests for the front ends' thread listings (#35 item 7): a named session's thread (`run
 * --session NAME`), "since you left" with the files each thread changed (`threads list --since`), and the sessions
 * view's listing read from the thread files when the threads index is unavailable, and who writes a thread. Plain data in and out; the
 * engine reads its own data home.
 */
import type { ThreadMetadata } from "../model/metadata";
import type { IndexedThread, ThreadQuery } from "../model/thread-list";

export type SessionsRequest =
  /**
   * The newest thread of named session `name` (tagged `session:NAME`, archived ones too) in `workspace`, of `agent`
   * (an id) when given; null when there is none.
   */
  | { op: "threads.named"; name: string; workspace: string; agent?: string }
  /**
   * "Since you left" (#36): the threads active since `since` (an ISO time) that the query names, as `threads.list`
   * lists them, and the files each one's turns changed since then (from its edit ledger; relative to its folder
   * where inside it).
   */
  | ({ op: "threads.away"; since: string; rescan?: boolean } & Omit<ThreadQuery, "since">)
  /**
   * Every thread read from its file (not the index: the sessions view's listing when the index is unavailable),
   * those under one of `roots` (none: all; a thread in a worktree counts under its repository's) that the query
   * names (its limit, since and before aside).
   */
  | ({ op: "threads.scan"; roots: string[] } & Pick<ThreadQuery, "agent" | "origin" | "status" | "archived">)
  /** Who writes the thread now (the live holder of its lock), without a synchronous file call; null: nobody. */
  | { op: "threads.writer"; threadId: string };

/** A thread's writer, for people and for "is it this process": its process, machine, label and since when. */
export interface ThreadWriter {
  pid: number;
  host: string;
  /** "VS Code window", "acp-threads run". */
  label: string;
  /** ISO time it took the thread. */
  since: string;
}

export interface SessionsReplies {
  "threads.named": ThreadMetadata | null;
  /** `files`: by thread id, each listed thread's changed files (none: an empty list). */
  "threads.away": { threads: IndexedThread[]; files: Record<string, string[]> };
  "threads.scan": ThreadMetadata[];
  "threads.writer": ThreadWriter | null;
}
