/**
 * A text file's complete lines, read in slices on the thread pool (`filehandle.read`) and decoded a slice at a time
 * (a `StringDecoder` keeps a character split between two slices whole), so a big file is never one buffer or one
 * string on the caller's thread. The last line is handed over even without its newline (a torn tail: the caller
 * decides what it is worth).
 */
import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/** Bytes read per slice: a few thousand short lines. */
export const SLICE_BYTES = 256 * 1024;

/** The lines of `path` (without their newline), a slice's complete lines at a time; rejects as `open` does. */
export async function* readLineSlices(path: string, sliceBytes = SLICE_BYTES): AsyncGenerator<string[]> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(sliceBytes);
    const decoder = new StringDecoder("utf8");
    let carry = "";
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, sliceBytes, null);
      const text = carry + (bytesRead > 0 ? decoder.write(buf.subarray(0, bytesRead)) : decoder.end());
      if (bytesRead === 0) {
        if (text) yield [text];
        return;
      }
      const lines = text.split("\n");
      carry = lines.pop()!;
      if (lines.length) yield lines;
    }
  } finally {
    await fh.close();
  }
}
