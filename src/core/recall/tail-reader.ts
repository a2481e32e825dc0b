/**
 * Reads the complete lines of a file between two byte offsets in bounded chunks, so a multi-GB transcript is
 * imported with a few MB of buffer. A last line without its newline (the writer is mid-append) is not returned.
 */
import { closeSync, openSync, readSync } from "node:fs";

const CHUNK = 8 * 1024 * 1024;

export interface TailLine {
  text: string;
  /** Absolute byte offset just past this line's newline: where the next read resumes. */
  end: number;
}

export function* completeLines(path: string, from: number, to: number, chunk = CHUNK): Generator<TailLine> {
  const fd = openSync(path, "r");
  try {
    let carry = Buffer.alloc(0);
    let pos = from; // file offset of the first byte after `carry`
    while (pos < to) {
      const want = Math.min(chunk, to - pos);
      const fresh = Buffer.allocUnsafe(want);
      const n = readSync(fd, fresh, 0, want, pos);
      if (n === 0) break;
      pos += n;
      const buf = carry.length ? Buffer.concat([carry, fresh.subarray(0, n)]) : fresh.subarray(0, n);
      const bufStart = pos - buf.length;
      let start = 0;
      for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
        yield { text: buf.toString("utf8", start, nl), end: bufStart + nl + 1 };
        start = nl + 1;
      }
      carry = Buffer.from(buf.subarray(start)); // a copy, so the chunk it came from can be collected
    }
  } finally {
    closeSync(fd);
  }
}
