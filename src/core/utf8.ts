/** UTF-8 helpers shared by the engine's bounded output buffers (agent terminals and exec runs). */

/** Length of the longest prefix of `bytes` that does not end inside a multi-byte UTF-8 character. */
export function utf8CompleteLength(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
