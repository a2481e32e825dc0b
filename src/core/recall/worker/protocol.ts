/**
 * Messages between a host thread and a recall worker (recall.worker.ts). The host never runs SQLite itself: a
 * query waiting for an importer's batch, or an import, would block its event loop.
 */
import type { CompactSummary } from "../compact";
import type { SyncSummary } from "../recall";
import type { ImportProgress } from "../progress";
import type { RecentOptions, RecentResult } from "../recent";
import type { SearchOptions, SearchResult } from "../search";
import type { RootSpec } from "../sources";
import type { RecallStatus } from "../status";

export interface WorkerData {
  home: string;
  /** Int32Array over it: [0] becomes 1 when the host cancels the import this worker runs. */
  cancel: SharedArrayBuffer;
}

/** What one import job reads: our own threads, then Codex rollouts, then Claude Code transcripts. */
export interface ImportPlan {
  own?: boolean;
  codex?: RootSpec;
  claude?: RootSpec;
}

export type WorkerRequest =
  | { id: number; op: "search"; query: string; opts: SearchOptions }
  | { id: number; op: "recent"; opts: RecentOptions }
  | { id: number; op: "status" }
  | { id: number; op: "import"; plan: ImportPlan }
  /** After an import that added `added` messages (compact.ts decides whether it was a bulk one). */
  | { id: number; op: "compact"; added: number }
  /** Closes the index and ends the worker (no reply). */
  | { id: number; op: "close" };

export interface Results {
  search: SearchResult;
  recent: RecentResult;
  status: RecallStatus;
  import: SyncSummary[];
  compact: CompactSummary | undefined;
  close: never;
}

export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { id: number; progress: ImportProgress };
