/**
 * Time-ordered thread ids (UUIDv7 layout): 48-bit millisecond timestamp, then a counter and random bits, so
 * ids sort by creation time as plain strings and file listings come out in order. Their shape (`isThreadId`,
 * `threadIdTime`) is model/thread-id.ts: reading an id needs no generator.
 */
import { randomBytes } from "node:crypto";

let lastMs = 0;
let counter = 0;

export function newThreadId(now: number = Date.now()): string {
  if (now <= lastMs) {
    counter += 1;
    now = lastMs;
  } else {
    lastMs = now;
    counter = randomBytes(2).readUInt16BE(0) & 0x3ff; // leave room to count up within one millisecond
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f); // version 7 + counter high bits
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // RFC 4122 variant
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
