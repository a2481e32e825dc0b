/**
 * Lines `line` .. `line + limit - 1` of a file for `fs/read_text_file`, read in chunks: a 2 GB file asked for ten
 * lines costs ten lines, and no answer is bigger than `maxBytes` (an over-long answer is an error naming the cap,
 * never a silently cut file an agent could write back).
 */
import { open } from "node:fs/promises";
import { AcpThreadsError } from "../errors";

/** The most one `fs/read_text_file` answer may carry. */
export const MAX_READ_BYTES = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

export interface LineRange {
  /** 1-based first line; default 1. */
  line?: number | null;
  /** How many lines; default all. */
  limit?: number | null;
  maxBytes?: number;
}

function bounds(range: LineRange): { first: number; last: number; cap: number } {
  const first = Math.max(1, Math.floor(range.line ?? 1));
  const last = range.limit != null && range.limit >= 0 ? first + Math.floor(range.limit) - 1 : Infinity;
  return { first, last, cap: range.maxBytes ?? MAX_READ_BYTES };
}

function tooBig(path: string, cap: number): AcpThreadsError {
  return new AcpThreadsError(
    "usage",
    `reading ${path}: the requested lines are over ${cap} bytes, the most one fs/read_text_file answers; ask for fewer lines with line/limit`,
    { path, maxBytes: cap },
  );
}

/** The range from text already in memory (an open editor), under the same cap. */
export function sliceLineRange(path: string, text: string, range: LineRange): string {
  const { first, last, cap } = bounds(range);
  let out: string;
  if (first === 1 && last === Infinity) out = text;
  else {
    const lines = text.split("\n");
    out = lines.slice(first - 1, last === Infinity ? undefined : last).join("\n");
  }
  if (Buffer.byteLength(out) > cap) throw tooBig(path, cap);
  return out;
}

/** The range from disk; `undefined` for a missing file. `bytesRead` says how far into the file it went. */
export async function readLineRange(
  path: string,
  range: LineRange,
): Promise<{ text: string; bytesRead: number } | undefined> {
  const { first, last, cap } = bounds(range);
  let fh;
  try {
    fh = await open(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const parts: Buffer[] = [];
    let kept = 0;
    let line = 1;
    let bytesRead = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    const keep = (part: Buffer) => {
      kept += part.length;
      if (kept > cap) throw tooBig(path, cap);
      parts.push(Buffer.from(part));
    };
    for (;;) {
      const { bytesRead: n } = await fh.read(buf, 0, CHUNK, bytesRead);
      if (n === 0) break;
      bytesRead += n;
      const chunk = buf.subarray(0, n);
      let start = 0;
      // the wanted lines of one chunk are one run of bytes: copied once, not line by line
      let from = -1;
      let to = 0;
      while (start < n && line <= last) {
        const nl = chunk.indexOf(NEWLINE, start);
        const end = nl === -1 ? n : nl + 1;
        // the newline ending the last wanted line is not part of the answer
        const stop = nl !== -1 && line === last ? nl : end;
        if (line >= first) {
          if (from === -1) from = start;
          to = stop;
        }
        if (nl === -1) break;
        line++;
        start = end;
      }
      if (from !== -1) keep(chunk.subarray(from, to));
      if (line > last) break;
    }
    return { text: Buffer.concat(parts).toString("utf8"), bytesRead };
  } finally {
    await fh.close();
  }
}
