/**
 * Output buffer bench: an agent terminal printing 64 MiB in 4 KiB chunks through the `terminal/output` buffer
 * (1 MiB limit, oldest bytes dropped on a UTF-8 boundary). Prints MiB/s of the shared ring buffer next to the buffer
 * used before #15 (bench/baselines/copying-output-buffer.ts: it re-copied the whole kept MiB on every append once
 * full), measured in the same run.
 */
import { OutputBuffer } from "../src/core/acp/output-buffer";
import { OutputBuffer as CopyingOutputBuffer } from "./baselines/copying-output-buffer";

const MiB = 1024 * 1024;
const chunk = Buffer.from("x".repeat(4095) + "\n");

function rate(totalMiB: number, append: (b: Buffer) => void, finish: () => string): { mibs: number; kept: number } {
  const t0 = performance.now();
  for (let sent = 0; sent < totalMiB * MiB; sent += chunk.length) append(chunk);
  const kept = finish().length;
  return { mibs: totalMiB / ((performance.now() - t0) / 1000), kept };
}

const ring = new OutputBuffer(MiB);
const now = rate(
  64,
  (b) => ring.append(b),
  () => ring.text(),
);
// the old buffer is slow: a smaller run gives the same rate
const old = new CopyingOutputBuffer(MiB);
const before = rate(
  16,
  (b) => old.append(b),
  () => old.text(),
);
console.log(`agent terminal output, 1 MiB limit, 4 KiB chunks:`);
console.log(`  ring buffer:            ${now.mibs.toFixed(0)} MiB/s (kept ${now.kept} chars)`);
console.log(
  `  before (copy per append): ${before.mibs.toFixed(1)} MiB/s (kept ${before.kept} chars) → ${(now.mibs / before.mibs).toFixed(0)}× faster`,
);
