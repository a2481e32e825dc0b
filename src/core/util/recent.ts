/**
 * Results reused for a short while, per key: asks for a key while its computation runs share it, and an ask within
 * `ttlMs` of its end gets its result without computing again. A failure is never kept (the next ask computes again).
 * For answers that are costly to compute and cheap to show a few seconds old: doctor's `--version` probes, which
 * each start a process (an agent's launcher, a whole Node program) and were run once per open new-thread panel on
 * every settings change.
 */
export interface Recent<V> {
  /** The result for `key`: shared, kept, or computed now by `compute`. */
  get(key: string, compute: () => Promise<V>): Promise<V>;
  /** Forget every result (what they were computed from changed: an agent was installed or removed). */
  clear(): void;
}

export interface RecentOptions {
  ttlMs: number;
  /** At most this many keys are kept; the oldest goes first. */
  maxKeys?: number;
  /** The clock (the caller's: `Date.now`). */
  now: () => number;
}

export function recentResults<V>(opts: RecentOptions): Recent<V> {
  const { now } = opts;
  const maxKeys = opts.maxKeys ?? 16;
  /** Per key: its computation, and when it ended (undefined while it runs). */
  const kept = new Map<string, { value: Promise<V>; endedAt?: number }>();
  return {
    get(key, compute) {
      const hit = kept.get(key);
      if (hit && (hit.endedAt === undefined || now() - hit.endedAt < opts.ttlMs)) return hit.value;
      kept.delete(key);
      const entry: { value: Promise<V>; endedAt?: number } = { value: (async () => await compute())() };
      entry.value.then(
        () => {
          // not after a clear() meanwhile (it began before what changed: its askers have it, later ones compute)
          if (kept.get(key) === entry) entry.endedAt = now();
        },
        () => {
          if (kept.get(key) === entry) kept.delete(key);
        },
      );
      kept.set(key, entry);
      while (kept.size > maxKeys) kept.delete(kept.keys().next().value!);
      return entry.value;
    },
    clear() {
      kept.clear(); // a computation running now is shared no more either: it began before the change
    },
  };
}
