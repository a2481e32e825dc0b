/**
 * What the ledger knows about one version of a file: its blob id, size, and whether its content is kept.
 * Text files up to `maxFileBytes` are stored; binary files (a NUL byte in the first 8000 bytes, git's test)
 * and larger files are noted with their size (and id when read) but never stored.
 */

export interface LedgerLimits {
  /** Files above this size are noted, not read or stored (default 1 MiB). */
  maxFileBytes: number;
  /** A workspace with more files than this is not tracked on disk (fs/write edits still are). Default 200,000. */
  maxFiles: number;
}

export const DEFAULT_LIMITS: LedgerLimits = { maxFileBytes: 1024 * 1024, maxFiles: 200_000 };

/** One version of a file. `null` in its place means "the file did not exist". */
export interface FileState {
  /** Git blob id of the content; null when it was not read (too large). */
  id: string | null;
  size: number;
  /** The content is in the ledger's blob store (restorable, diffable). */
  stored: boolean;
  binary?: true;
  tooLarge?: true;
}

const SNIFF = 8000;

export function isBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, SNIFF).includes(0);
}

export function sameContent(a: FileState | null, b: FileState | null): boolean {
  if (!a || !b) return a === b;
  if (a.id && b.id) return a.id === b.id;
  return false; // unread (too large) versions can never be proven equal
}

export function describeState(s: FileState | null): string {
  if (!s) return "absent";
  if (s.tooLarge) return `too large (${s.size} bytes, not kept)`;
  if (s.binary) return `binary (${s.size} bytes, not kept)`;
  return `${s.size} bytes`;
}

/** Parses a FileState from untrusted JSON; undefined when malformed. */
export function parseState(v: unknown): FileState | null | undefined {
  if (v === null) return null;
  if (typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (!(o.id === null || (typeof o.id === "string" && /^[0-9a-f]{40}$/.test(o.id)))) return undefined;
  if (typeof o.size !== "number" || typeof o.stored !== "boolean") return undefined;
  return {
    id: o.id as string | null,
    size: o.size,
    stored: o.stored,
    ...(o.binary === true ? { binary: true as const } : {}),
    ...(o.tooLarge === true ? { tooLarge: true as const } : {}),
  };
}
