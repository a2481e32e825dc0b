/**
 * A process-wide replaceable value: where unexpected errors go, who starts terminals and short commands (the
 * extension host installs its spawner). `set` returns a function that puts the previous value back — only while
 * the value set is still the current one, so restores in any order never undo a later install.
 */
export interface Slot<T> {
  get(): T;
  set(next: T): () => void;
}

export function slot<T>(initial: T): Slot<T> {
  let current = initial;
  return {
    get: () => current,
    set(next) {
      const previous = current;
      current = next;
      return () => {
        if (current === next) current = previous;
      };
    },
  };
}
