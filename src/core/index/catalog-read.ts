/**
 * One thread file read into its catalog row (the thread catalog's reads and the Sessions view's first paint
 * without the index, threads-cold.ts): asynchronously, the tail since the last read when the file only grew (its
 * head unchanged), else the whole file, up to the last complete line.
 */
import { open, stat } from "node:fs/promises";
import { MetadataFolder } from "../model/metadata";
import { readRecordsFromBuffer } from "../store/jsonl-reader";
import type { CatalogRow } from "./catalog-load";

const HEAD_BYTES = 256;

export type CatalogFileRow = Omit<CatalogRow, "id">;

/**
 * `path`'s row: `prev` itself when the file's size and mtime are unchanged, undefined when the file is gone;
 * throws when it cannot be read or holds no thread.
 */
export async function readCatalogRow(path: string, prev?: CatalogFileRow): Promise<CatalogFileRow | undefined> {
  const st = await stat(path).catch(() => undefined);
  if (!st) return undefined;
  if (prev && prev.size === st.size && prev.mtime === st.mtimeMs) return prev;
  const fh = await open(path, "r");
  try {
    const headBuf = Buffer.alloc(Math.min(HEAD_BYTES, st.size));
    await fh.read(headBuf, 0, headBuf.length, 0);
    const head = headBuf.toString("hex");
    const tail = !!prev && st.size >= prev.size && head.startsWith(prev.head);
    const from = tail ? prev.offset : 0;
    const buf = Buffer.alloc(Math.max(0, st.size - from));
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, from + got);
      if (!bytesRead) break;
      got += bytesRead;
    }
    const res = readRecordsFromBuffer(buf.subarray(0, got), from);
    const folder = new MetadataFolder();
    if (tail) folder.metadata = structuredClone(prev.meta);
    for (const r of res.records) folder.add(r);
    if (!folder.metadata) throw new Error("no thread_start record");
    return { meta: folder.metadata, size: st.size, mtime: st.mtimeMs, offset: res.endOffset, head };
  } finally {
    await fh.close();
  }
}
