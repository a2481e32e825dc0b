/** The shape of a thread id (store/thread-id.ts makes them: UUIDv7 layout, time-ordered). */
const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Thread ids become file names: only accept our own shape, never a path. */
export function isThreadId(value: string): boolean {
  return ID_RE.test(value);
}

/**
 * Whether `value` may name a thread or a record by its id or a start of one: hex digits and dashes only, nothing a
 * path is made of (the engine checks what a request names before it looks anything up).
 */
export function isIdOrPrefix(value: string): boolean {
  return /^[0-9a-f-]{1,36}$/i.test(value);
}

/** Creation time encoded in a thread id. */
export function threadIdTime(id: string): Date {
  return new Date(parseInt(id.replace(/-/g, "").slice(0, 12), 16));
}
