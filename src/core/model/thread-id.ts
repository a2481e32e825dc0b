/** The shape of a thread id (store/thread-id.ts makes them: UUIDv7 layout, time-ordered). */
const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Thread ids become file names: only accept our own shape, never a path. */
export function isThreadId(value: string): boolean {
  return ID_RE.test(value);
}

/** Creation time encoded in a thread id. */
export function threadIdTime(id: string): Date {
  return new Date(parseInt(id.replace(/-/g, "").slice(0, 12), 16));
}
