/** Snapshots as the front ends name and list them (core/snapshot reads and writes them). */

/** The workspace folder a save goes to without a target (it ignores itself in git), and earlier versions saved in. */
export const SNAPSHOT_DIR = ".acp-threads";

/** A snapshot file as a listing shows it before anything is restored (core/snapshot/load.ts reads it). */
export interface SnapshotListing {
  path: string;
  savedAt: string;
  size: number;
  messageCount: number;
  agent: string;
  model: string | null;
  title: string | null;
  /** Set instead of the fields above when the file cannot be read as a snapshot. */
  error?: string;
}
