/**
 * The engine requests of recall's index (#35 item 7): importing Codex and Claude Code history (and our own threads)
 * into it with progress and cancel, and compacting it after a bulk import. Joined into the engine's union in
 * requests.ts; served by serve-recall-index.ts. The window runs them in the engine worker (core/engine/worker.ts),
 * so neither an import nor a compaction blocks the extension host.
 *
 * An import only reads the transcripts under the roots it is given (absolute folders) and writes the index; the
 * compaction decides itself whether the import was a bulk one (compact.ts). A cancelled import answers with what it
 * committed (its last summary says `cancelled`): the next import resumes each file where it stopped.
 */
import type { CompactSummary } from "../recall/compact";
import type { ImportProgress } from "../recall/progress";
import type { SyncSummary } from "../recall/recall";

/** A transcript root to import (core/recall/sources.ts `RootSpec`): `root` absolute. */
export interface RecallRoot {
  root: string;
  sinceDays?: number;
  allHistory?: boolean;
  limitFiles?: number;
}

export type RecallIndexRequest =
  /**
   * Imports, in this order, our own threads (`own`), Codex rollouts, Claude Code transcripts. Progress: `import`
   * (bytes read per source, files, messages). Refused while another process imports into the index.
   */
  | { op: "recall.import"; own?: boolean; codex?: RecallRoot; claude?: RecallRoot }
  /** After an import that added `added` messages: compacts the index when that was a bulk import; stops at cancel. */
  | { op: "recall.compact"; added: number };

export interface RecallIndexReplies {
  /** One summary per source read; the last one has `cancelled` when the import was cancelled. */
  "recall.import": SyncSummary[];
  /** `compacted`: absent when there was nothing to do. */
  "recall.compact": { compacted?: CompactSummary };
}

/** A recall import's progress, as `EngineProgress`: `message` says it in words (core/recall/describe.ts). */
export type RecallImportProgress = { t: "import"; message: string; progress: ImportProgress };
