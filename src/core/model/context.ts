import { isObj as isObject } from "../util/guards";
/**
 * Context attached to a prompt: what the user mentioned with `@` (files, folders, selections, symbols,
 * diagnostics, the Problems list, past threads) or pasted (images). Plain types shared by the block builder
 * (core/prompt), the thread records, the CLI, the extension host and the webview. Imports nothing.
 *
 * A `ContextRef` is what is kept in the thread (a chip): never file text or image bytes. A `ContextItem` is a
 * ref plus the content captured when the mention was made (a selection's text), handed to the block builder.
 */

export const CONTEXT_KINDS = [
  "file",
  "folder",
  "selection",
  "symbol",
  "diagnostic",
  "problems",
  "thread",
  "image",
] as const;
export type ContextKind = (typeof CONTEXT_KINDS)[number];

/** 1-based, inclusive line range. */
export interface LineRange {
  start: number;
  end: number;
}

/** How a piece of context reached the agent. */
export type ContextDelivery = "embedded" | "link" | "text" | "image";

export interface ContextRef {
  kind: ContextKind;
  /** Short text on the chip ("greet.js:1-3", "Problems (3)", a thread title). */
  label: string;
  /** The URI the agent sees: `file:///abs[#L1:3]`, `acp-threads://thread/<id>`, `acp-threads://problems`. */
  uri: string;
  /** Absolute path of file-backed kinds (file, folder, selection, symbol, diagnostic, an image's source). */
  path?: string;
  range?: LineRange;
  threadId?: string;
  /** Images: the file kept beside the thread (`<threadId>.assets/<asset>`), its type and size. */
  asset?: string;
  mimeType?: string;
  bytes?: number;
  /** Images: a small preview beside the asset (`<threadId>.assets/<thumb>`), when one was made. */
  thumb?: string;
  /** Set once sent: how it reached the agent. */
  sent?: ContextDelivery;
}

export interface ContextItem extends ContextRef {
  /**
   * Text captured when the mention was made: a selection's text (from the unsaved buffer), a diagnostic's
   * description, the Problems list. Files are read when the prompt is sent.
   */
  content?: string;
  /** Image bytes (never stored in a record; written beside the thread). */
  data?: Uint8Array;
  /** A preview of an image (JPEG/PNG bytes) made by the prompt box. */
  thumbData?: Uint8Array;
}

/** A prompt as composed: text with context items where the chips are. */
export type PromptPart = { type: "text"; text: string } | { type: "context"; item: ContextItem };

export function isContextKind(v: unknown): v is ContextKind {
  return typeof v === "string" && (CONTEXT_KINDS as readonly string[]).includes(v);
}

const shortString = (v: unknown, max: number): v is string => typeof v === "string" && v.length <= max;
const count = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const DELIVERIES: readonly ContextDelivery[] = ["embedded", "link", "text", "image"];

/**
 * A context ref from untrusted or stored input (a webview message, a thread record, a snapshot): known kind,
 * bounded strings, a sane range; anything else is dropped rather than trusted.
 */
export function parseContextRef(v: unknown): ContextRef | undefined {
  if (!isObject(v) || !isContextKind(v.kind) || !shortString(v.label, 500) || !shortString(v.uri, 4096))
    return undefined;
  const ref: ContextRef = { kind: v.kind, label: v.label, uri: v.uri };
  if (v.path !== undefined) {
    if (!shortString(v.path, 4096)) return undefined;
    ref.path = v.path;
  }
  if (v.range !== undefined) {
    const r = v.range;
    if (!isObject(r) || !count(r.start) || !count(r.end) || r.start < 1 || r.end < r.start) return undefined;
    ref.range = { start: r.start, end: r.end };
  }
  for (const k of ["threadId", "asset", "mimeType", "thumb"] as const) {
    if (v[k] === undefined) continue;
    if (!shortString(v[k], 500)) return undefined;
    ref[k] = v[k];
  }
  if (count(v.bytes)) ref.bytes = v.bytes;
  if (typeof v.sent === "string" && (DELIVERIES as readonly string[]).includes(v.sent))
    ref.sent = v.sent as ContextDelivery;
  return ref;
}

/** The valid refs of a stored list (records written by any 1.x version); undefined when there are none. */
export function parseContextRefs(v: unknown): ContextRef[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const refs = v.map(parseContextRef).filter((r): r is ContextRef => !!r);
  return refs.length ? refs : undefined;
}
