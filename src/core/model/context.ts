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
