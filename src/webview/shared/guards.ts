/** Checks for untrusted messages from webviews (shared by every protocol.ts; no DOM, no vscode). */

export type Fields = Record<string, unknown>;

/** The message as a plain object, or undefined for anything else (null, arrays, primitives). */
export const fields = (raw: unknown): Fields | undefined =>
  raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Fields) : undefined;

/** A string no longer than `max` characters. */
export const str = (v: unknown, max = 100_000): v is string => typeof v === "string" && v.length <= max;
