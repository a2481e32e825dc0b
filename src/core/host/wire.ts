/**
 * Newline-delimited JSON on a socket, both ends of the thread host (protocol.ts): `readLines` calls back once per
 * complete line and closes the socket on a line longer than the cap (a broken or hostile peer cannot make the
 * reader buffer without bound); `send` writes one message and reports how many bytes wait unsent.
 */
import type { Duplex } from "node:stream";
import { MAX_MESSAGE_BYTES } from "./protocol";

export function readLines(sock: Duplex, onMessage: (msg: unknown) => void, cap = MAX_MESSAGE_BYTES): void {
  let parts: Buffer[] = [];
  let held = 0;
  sock.on("data", (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const line = held ? Buffer.concat([...parts, piece]).toString("utf8") : piece.toString("utf8");
      parts = [];
      held = 0;
      start = nl + 1;
      if (line.length + 1 > cap) return void sock.destroy(new Error("host message over the size cap"));
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        return void sock.destroy(new Error("host message is not JSON"));
      }
      onMessage(msg);
      if (sock.destroyed) return;
    }
    if (start < chunk.length) {
      held += chunk.length - start;
      if (held >= cap) return void sock.destroy(new Error("host message over the size cap"));
      parts.push(chunk.subarray(start));
    }
  });
}

/** Writes `msg` as one line; returns the bytes the socket holds unsent afterwards. */
export function send(sock: Duplex, msg: unknown): number {
  if (sock.destroyed || !sock.writable) return 0;
  sock.write(`${JSON.stringify(msg)}\n`);
  return sock.writableLength;
}
