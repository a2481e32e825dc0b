/**
 * Reads thread records from a byte offset. A last line without "\n" is a torn tail (a writer killed
 * mid-write): it is skipped with a warning and `endOffset` stops before it, so an incremental reader picks
 * it up once complete. A bad line in the middle is skipped with a warning too; nothing breaks the thread.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { parseRecord, type ThreadRecord } from "../model/records";

export interface ReadWarning {
  /** Byte offset of the bad line. */
  offset: number;
  message: string;
}

export interface ReadResult {
  records: ThreadRecord[];
  /** Offset just after the last complete line: where the next incremental read starts. */
  endOffset: number;
  /** File size seen by this read. */
  size: number;
  /** Bytes after `endOffset` that do not end in "\n" (0 when the file ends cleanly). */
  tornBytes: number;
  warnings: ReadWarning[];
}

const NL = 0x0a;

export function readRecordsFromBuffer(buf: Buffer, baseOffset = 0): ReadResult {
  return readLinesFromBuffer(buf, parseRecord, baseOffset);
}

/** The line reader for any JSONL family: `parse` validates one line (thread records, the edit ledger). */
export function readLinesFromBuffer<T>(
  buf: Buffer,
  parse: (line: string) => { ok: true; record: T } | { ok: false; error: string },
  baseOffset = 0,
): Omit<ReadResult, "records"> & { records: T[] } {
  const records: T[] = [];
  const warnings: ReadWarning[] = [];
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(NL, start);
    if (nl < 0) break;
    if (nl > start) {
      const line = buf.toString("utf8", start, nl);
      if (line.trim()) {
        const parsed = parse(line);
        if (parsed.ok) records.push(parsed.record);
        else warnings.push({ offset: baseOffset + start, message: `skipped bad line: ${parsed.error}` });
      }
    }
    start = nl + 1;
  }
  const tornBytes = buf.length - start;
  if (tornBytes > 0) {
    warnings.push({
      offset: baseOffset + start,
      message: `torn last line (${tornBytes} bytes without a newline) skipped`,
    });
  }
  return { records, endOffset: baseOffset + start, size: baseOffset + buf.length, tornBytes, warnings };
}

/** Reads records from `offset` to the current end of the file. */
export function readRecords(path: string, offset = 0): ReadResult {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (offset > size) offset = 0; // the file shrank: the caller's offset is meaningless, read it whole
    const buf = Buffer.allocUnsafe(size - offset);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return readRecordsFromBuffer(got === buf.length ? buf : buf.subarray(0, got), offset);
  } finally {
    closeSync(fd);
  }
}

/** `readRecords` without a synchronous file call (the extension host opening or following a thread). */
export async function readRecordsAsync(path: string, offset = 0): Promise<ReadResult> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    if (offset > size) offset = 0; // the file shrank: the caller's offset is meaningless, read it whole
    const buf = Buffer.allocUnsafe(size - offset);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return readRecordsFromBuffer(got === buf.length ? buf : buf.subarray(0, got), offset);
  } finally {
    await fh.close();
  }
}

/** Reads just the first record (the thread_start header) without loading the whole file. */
export function readFirstRecord(path: string): ThreadRecord | undefined {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    let pos = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return undefined;
      const nl = buf.subarray(0, n).indexOf(NL);
      if (nl >= 0) {
        chunks.push(buf.subarray(0, nl));
        const parsed = parseRecord(Buffer.concat(chunks).toString("utf8"));
        return parsed.ok ? parsed.record : undefined;
      }
      chunks.push(buf.subarray(0, n));
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}
