/**
 * One pass of the importer over a list of transcript files into one index, and the summary it adds up: shared by
 * the main index's sync (recall.ts) and a shard's import on the second core (shard-import.ts).
 */
import type { CompactSummary } from "./compact";
import { importFile, type Fingerprints, type ImportSpec } from "./importer";
import type { SourceName } from "./model";
import type { ImportTracker } from "./progress";
import type { RecallWriter } from "./writer";

export interface SyncSummary {
  source: SourceName;
  files: number;
  imported: number;
  unchanged: number;
  missing: number;
  /** Files this process cannot read (a `.jsonl.zst` on a Node without zstd); `notes` says why. */
  unreadable: number;
  notes?: string[];
  messages: number;
  bad_lines: number;
  unknown_records: number;
  elapsed_ms: number;
  /** Set when another process was importing into this index, so this sync did nothing (syncOwnThreads only). */
  busy?: boolean;
  /** Set when the import was cancelled: `messages` then counts what was committed before it stopped. */
  cancelled?: boolean;
  /** Set by the CLI when it compacted the index after this import (compact.ts). */
  compacted?: CompactSummary;
  /** Set when half of the new files were imported on a second core (shard-import.ts). */
  sharded?: { files: number; messages: number; rounds: number; splice_ms: number };
}

export const emptySummary = (source: SourceName): SyncSummary => ({
  source,
  files: 0,
  imported: 0,
  unchanged: 0,
  missing: 0,
  unreadable: 0,
  messages: 0,
  bad_lines: 0,
  unknown_records: 0,
  elapsed_ms: 0,
});

/** Imports `specs` in order into `sum`; throws ImportCancelled (from the tracker) when stopped. */
export function importSpecs(
  writer: RecallWriter,
  specs: ImportSpec[],
  known: Fingerprints,
  tracker: ImportTracker | undefined,
  sum: SyncSummary,
  linked?: Set<string>,
): void {
  for (const spec of specs) {
    const r = importFile(writer, spec, known, tracker);
    tracker?.end();
    if (r.linked) linked?.add(r.linked);
    sum[r.status]++;
    if (r.reason && !sum.notes?.includes(r.reason)) (sum.notes ??= []).push(r.reason);
    sum.messages += r.messages;
    sum.bad_lines += r.badLines;
    sum.unknown_records += r.unknown;
  }
}

/** Adds a shard's counts to the main summary. */
export function addSummary(into: SyncSummary, from: SyncSummary): void {
  for (const k of [
    "imported",
    "unchanged",
    "missing",
    "unreadable",
    "messages",
    "bad_lines",
    "unknown_records",
  ] as const)
    into[k] += from[k];
  for (const n of from.notes ?? []) if (!into.notes?.includes(n)) (into.notes ??= []).push(n);
}
