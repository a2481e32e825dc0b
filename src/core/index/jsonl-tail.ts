/**
 * Incremental reading of append-only JSONL files for the derived indexes: each index remembers a file's size,
 * mtime, the byte offset read so far and its first bytes. An unchanged file is skipped, a grown file with the
 * same head is read from the remembered offset, anything else (shrunk, replaced by another file) is read whole.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { readRecordsFromBuffer, type ReadResult } from "../store/jsonl-reader";

const HEAD_BYTES = 256;

export interface TailCursor {
  path: string;
  size: number;
  mtime: number;
  /** Offset just after the last complete line read. */
  offset: number;
  /** Hex of the file's first bytes when it was read. */
  head: string;
}

export type TailRead =
  { kind: "unchanged" } | { kind: "tail" | "full"; records: ReadResult["records"]; cursor: TailCursor };

/** The bytes of `fd` from `from` to `size` (fewer if the file is shorter now). */
function readFrom(fd: number, from: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, size - from));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return got === buf.length ? buf : buf.subarray(0, got);
}

/**
 * Reads what is new in `path` since `prev` (throws when the file cannot be read). One open per changed file: a
 * whole read takes its head from the bytes it read (#36: a separate open for the head was a fifth of a rebuild).
 */
export function readTail(path: string, prev: TailCursor | undefined): TailRead {
  const st = statSync(path);
  if (prev && prev.path === path && prev.size === st.size && prev.mtime === st.mtimeMs) return { kind: "unchanged" };
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const first = readFrom(fd, 0, Math.min(HEAD_BYTES, size));
    const head = first.toString("hex");
    // a tail read is safe only when the file grew and its head is unchanged (not replaced by another thread)
    const tail = !!prev && prev.path === path && size >= prev.size && head.startsWith(prev.head);
    const from = tail ? prev.offset : 0;
    const res = readRecordsFromBuffer(from === 0 && size <= HEAD_BYTES ? first : readFrom(fd, from, size), from);
    return {
      kind: tail ? "tail" : "full",
      records: res.records,
      cursor: { path, size, mtime: st.mtimeMs, offset: res.endOffset, head },
    };
  } finally {
    closeSync(fd);
  }
}

/** What an index remembers per file (column names as stored). */
export interface StoredCursor {
  path: string;
  size: number;
  mtime: number;
  byte_offset: number;
  head: string;
}

export interface TailSyncStats {
  scanned: number;
  unchanged: number;
  tailRead: number;
  fullRead: number;
  removed: number;
  failed: number;
}

export interface TailSyncHandlers<K extends StoredCursor> {
  /** New records of `id` (`prev` is set for a tail read: continue from its stored fold state). */
  read(id: string, path: string, read: Exclude<TailRead, { kind: "unchanged" }>, prev: K | undefined): void;
  /** The file could not be read, or the thread is gone: drop what the index has for it. */
  forget(id: string): void;
}

/**
 * The sync loop both derived indexes share: every id is read as far as it changed since `known` (the index's
 * rows, by id); a file that fails to read and every id no longer on disk are forgotten.
 */
export function syncTails<K extends StoredCursor>(
  ids: readonly string[],
  pathFor: (id: string) => string,
  known: Map<string, K>,
  h: TailSyncHandlers<K>,
): TailSyncStats {
  const stats: TailSyncStats = { scanned: 0, unchanged: 0, tailRead: 0, fullRead: 0, removed: 0, failed: 0 };
  const left = new Map(known);
  for (const id of ids) {
    stats.scanned++;
    const path = pathFor(id);
    const prev = left.get(id);
    left.delete(id);
    try {
      const read = readTail(
        path,
        prev && { path: prev.path, size: prev.size, mtime: prev.mtime, offset: prev.byte_offset, head: prev.head },
      );
      if (read.kind === "unchanged") {
        stats.unchanged++;
        continue;
      }
      if (read.kind === "tail") stats.tailRead++;
      else stats.fullRead++;
      h.read(id, path, read, read.kind === "tail" ? prev : undefined);
    } catch {
      stats.failed++; // unreadable file: left out of the index, the store reports it when opened
      if (prev) h.forget(id);
    }
  }
  for (const id of left.keys()) {
    h.forget(id);
    stats.removed++;
  }
  return stats;
}
