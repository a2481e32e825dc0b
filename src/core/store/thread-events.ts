/**
 * A thread's stored records as panel events, read without blocking the caller's thread on the file: the bytes
 * up to `upTo` (a checkpoint where the writer had flushed everything before it) are read asynchronously, then
 * parsed. A live panel re-inits from here instead of holding every event of the session in memory.
 */
import { open } from "node:fs/promises";
import type { RuntimeEvent } from "../model/events";
import { recordsToEvents } from "../thread/record-events";
import { readRecordsFromBuffer } from "./jsonl-reader";

export async function readThreadEvents(path: string, upTo?: number): Promise<RuntimeEvent[]> {
  const file = await open(path, "r");
  try {
    const size = Math.min(upTo ?? Infinity, (await file.stat()).size);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await file.read(buf, got, size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return recordsToEvents(readRecordsFromBuffer(buf.subarray(0, got)).records);
  } finally {
    await file.close();
  }
}
