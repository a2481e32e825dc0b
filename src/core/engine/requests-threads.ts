/**
 * The engine's thread-reading requests (#35 item 7): list the threads of the index, read one thread's records (from
 * a cursor), its metadata, rename it. A thread is named by its id or a unique prefix of one (at least 4
 * characters), which the engine resolves in its own data home: anything else (a path, `../`) is a usage error and
 * nothing is read or written.
 */
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadRecord } from "../model/records";
import type { IndexedThread, ThreadQuery } from "../model/thread-list";

export type ThreadsRequest =
  /**
   * The threads the query names, newest first, from the threads index (#36: the recent-threads file while the disk
   * is as it saw it, else the synced index; `rescan`: stat every thread file first).
   */
  | ({ op: "threads.list"; rescan?: boolean } & ThreadQuery)
  /**
   * One thread's records from record `from` on (default 0: all), with its metadata and the file's bad lines. Read
   * without a synchronous file call when `threadId` is a whole id (the window's extension host).
   */
  | { op: "threads.read"; threadId: string; from?: number }
  /** One thread's metadata (as `threads.read` folds it). */
  | { op: "threads.meta"; threadId: string }
  /** Sets the user's title (blank: clears it, the agent's titles apply again). Refused while another writer holds it. */
  | { op: "threads.rename"; threadId: string; title: string }
  /**
   * Archives (`archived: false`: brings back) the threads named by `ids`, else those the filters pick (`olderThan`:
   * last activity before this ISO time); one of them is needed. A thread another process is writing is left as it is
   * and named in `failed`. `dryRun`: only says which threads it would change. The engine picks them: a request
   * names threads, never files.
   */
  | ({
      op: "threads.archive";
      archived: boolean;
      ids?: string[];
      olderThan?: string;
      dryRun?: boolean;
    } & Pick<ThreadQuery, "workspace" | "agent" | "origin" | "status" | "worktree">);

export interface ThreadsReplies {
  "threads.list": IndexedThread[];
  /**
   * `threadId`: the whole id; `next`: the cursor after the last record (the thread's record count); `offset`: where
   * those records end in the thread's file (a torn tail left out), `threads.follow`'s `fromOffset` to go on from
   * exactly there, with nothing lost or doubled.
   */
  "threads.read": {
    threadId: string;
    metadata: ThreadMetadata;
    records: ThreadRecord[];
    next: number;
    offset: number;
    warnings: { offset: number; message: string }[];
  };
  "threads.meta": ThreadMetadata;
  /** `title`: the title now stored (null: none). */
  "threads.rename": { threadId: string; title: string | null };
  /** `todo`: the threads to change (those already so are left out); `done`: changed; `failed`: left as they are. */
  "threads.archive": { todo: IndexedThread[]; done: string[]; failed: { id: string; error: string }[] };
}
