/**
 * The long-day bench's memory breakdown: where the extension host's memory sits (V8 heap spaces, buffers outside
 * the heap, the SQLite wasm memories count as `arrayBuffers`) and how many objects the long-lived structures
 * hold, sampled after each session and compared with the baseline sampled before the first one in the same run.
 */
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

export type Sample = Record<string, number>;

/** Megabyte fields are named `*MB`; the rest are counts. */
export function sample(counts: Record<string, number> = {}): Sample {
  const m = process.memoryUsage();
  const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
  const spaces: Sample = {};
  for (const s of getHeapSpaceStatistics()) {
    const name = s.space_name.replace(/_space$/, "");
    if (["old", "large_object", "code", "new"].includes(name)) spaces[`${name}MB`] = mb(s.space_used_size);
  }
  const h = getHeapStatistics();
  return {
    rssMB: mb(m.rss),
    heapMB: mb(m.heapUsed),
    // the heap's pages in RAM (used or not: V8 keeps freed pages a while) and V8's own malloc
    heapPhysicalMB: mb(h.total_physical_size),
    v8MallocMB: mb(h.malloced_memory),
    // RSS that is neither the V8 heap's pages nor buffers V8 knows about: native (node-pty, malloc arenas, code)
    nativeMB: mb(m.rss - h.total_physical_size - m.external),
    ...spaces,
    externalMB: mb(m.external),
    arrayBuffersMB: mb(m.arrayBuffers),
    ...counts,
  };
}

/** One line: every field of `s`. */
export function line(s: Sample): string {
  return Object.entries(s)
    .map(([k, v]) => `${k.replace(/MB$/, "")} ${v}${k.endsWith("MB") ? " MB" : ""}`)
    .join(", ");
}

/** A table of the baseline, warm-up and end samples with the growth after warm-up and the end/baseline ratio. */
export function table(base: Sample, warm: Sample, end: Sample): string[] {
  const rows = [["field", "baseline", "warm-up", "end", "end-warm", "end/base"]];
  for (const k of Object.keys(end)) {
    const b = base[k] ?? 0;
    const ratio = b ? `${(end[k]! / b).toFixed(2)}x` : "-";
    const growth = Math.round((end[k]! - (warm[k] ?? 0)) * 10) / 10;
    rows.push([k, String(b), String(warm[k] ?? 0), String(end[k]), String(growth), ratio]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => "    " + r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  "));
}

/** The curve: one row per batch of `size` samples (its last sample), each field with its change since the row before. */
export function batches(base: Sample, samples: Sample[], size: number): string[] {
  const picked = samples.filter((_, i) => (i + 1) % size === 0 || i === samples.length - 1);
  const keys = Object.keys(base);
  const rows = [["after", ...keys.map((k) => k.replace(/MB$/, ""))]];
  let prev = base;
  picked.forEach((s, i) => {
    const n = Math.min(samples.length, (i + 1) * size);
    const cell = (k: string) => {
      const d = Math.round(((s[k] ?? 0) - (prev[k] ?? 0)) * 10) / 10;
      return `${s[k] ?? 0} (${d >= 0 ? "+" : ""}${d})`;
    };
    rows.push([`${n} sessions`, ...keys.map(cell)]);
    prev = s;
  });
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => "    " + r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  "));
}
