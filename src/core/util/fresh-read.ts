/**
 * Reads per key, at most one at a time, where a read asked for while one runs is never answered by it: that read
 * began before whatever prompted the new ask (a turn that just ended, say) and may miss it. The new ask gets a read
 * that starts when the running one ends; asks that come meanwhile share that queued read.
 */
export interface FreshReads<K, V> {
  read(key: K): Promise<V>;
  /** A read of `key` runs or waits to run. */
  busy(key: K): boolean;
}

export function freshReads<K, V>(readNow: (key: K) => Promise<V>): FreshReads<K, V> {
  const running = new Map<K, Promise<V>>();
  const queued = new Map<K, Promise<V>>();
  const start = (key: K): Promise<V> => {
    const p = readNow(key).finally(() => {
      if (running.get(key) === p) running.delete(key);
    });
    running.set(key, p);
    return p;
  };
  return {
    read(key) {
      const waiting = queued.get(key);
      if (waiting) return waiting;
      const current = running.get(key);
      if (!current) return start(key);
      const next = current
        .catch(() => undefined)
        .then(() => {
          queued.delete(key);
          return start(key);
        });
      queued.set(key, next);
      return next;
    },
    busy: (key) => running.has(key) || queued.has(key),
  };
}
