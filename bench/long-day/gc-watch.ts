/**
 * The host's garbage-collection pauses while the day streams (PerformanceObserver "gc" entries), without the
 * bench's own forced full GCs: how much of the event-loop delay is the collector, by kind.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

interface Tally {
  count: number;
  totalMs: number;
  over20: number;
  maxMs: number;
}

export class GcWatch {
  readonly #by = new Map<string, Tally>();
  #on = false;
  readonly #obs = new PerformanceObserver((list) => {
    if (!this.#on) return;
    for (const e of list.getEntries()) this.#add(e);
  });

  constructor() {
    this.#obs.observe({ entryTypes: ["gc"] });
  }

  /** Counts pauses only while on (the bench turns it off around its own gc() and heap snapshots). */
  set on(v: boolean) {
    this.#on = v;
  }

  #add(e: PerformanceEntry): void {
    const detail = (e as PerformanceEntry & { detail?: { kind: number; flags: number } }).detail;
    if (!detail || detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) return;
    const kind = KINDS[detail.kind] ?? String(detail.kind);
    const t = this.#by.get(kind) ?? { count: 0, totalMs: 0, over20: 0, maxMs: 0 };
    t.count++;
    t.totalMs += e.duration;
    if (e.duration > 20) t.over20++;
    t.maxMs = Math.max(t.maxMs, e.duration);
    this.#by.set(kind, t);
  }

  /** "minor 812× 2301 ms (3 over 20 ms, max 41 ms), major …" */
  summary(wallMs: number): string {
    const parts = [...this.#by].map(
      ([k, t]) => `${k} ${t.count}× ${t.totalMs.toFixed(0)} ms (${t.over20} over 20 ms, max ${t.maxMs.toFixed(0)} ms)`,
    );
    const total = [...this.#by.values()].reduce((n, t) => n + t.totalMs, 0);
    return `${parts.join(", ") || "none"}; ${((total / wallMs) * 100).toFixed(1)}% of the wall time`;
  }

  dispose(): void {
    this.#obs.disconnect();
  }
}
