/**
 * Zstandard-compressed transcripts (`rollout-….jsonl.zst`: Codex can compress finished rollouts). node:zlib has
 * zstd since Node 22.15 / 23.8 (the VS Code extension host of recent releases has it); an older Node says so
 * clearly instead of skipping the files in silence. A compressed file is complete: it is read whole, never resumed
 * from an offset (a changed one is read again from its start).
 */
import { readFileSync } from "node:fs";
import type { TailLine } from "./tail-reader";

export const isPacked = (path: string) => path.endsWith(".zst");

type ZstdSync = (buf: Buffer) => Buffer;
/** node:zlib's zstd, loaded on first use (a CLI query never needs node:zlib). */
const decompressor = (): ZstdSync | undefined =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see above
  (require("node:zlib") as { zstdDecompressSync?: ZstdSync }).zstdDecompressSync;

/** Why this Node cannot read `.zst` transcripts, or undefined when it can. */
export function packedUnsupported(version = process.version, fn: unknown = decompressor()): string | undefined {
  return typeof fn === "function"
    ? undefined
    : `this Node (${version}) has no zstd in node:zlib: .jsonl.zst transcripts need Node ≥ 22.15 (or 23.8)`;
}

/**
 * The lines of a compressed transcript. `end` is scaled to the compressed file's bytes (what progress reports
 * count); a torn last line is dropped like the tail reader does.
 */
export function* packedLines(path: string, size: number): Generator<TailLine> {
  const decompress = decompressor();
  if (!decompress) throw new Error(packedUnsupported());
  const buf = decompress(readFileSync(path));
  const scale = buf.length > 0 ? size / buf.length : 0;
  let start = 0;
  for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
    yield { text: buf.toString("utf8", start, nl), end: Math.min(size, Math.round((nl + 1) * scale)) };
    start = nl + 1;
  }
}
