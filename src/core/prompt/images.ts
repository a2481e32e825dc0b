/**
 * Images attached to prompts: the type is read from the bytes (never trusted from a name or a paste), the
 * size is capped, and the bytes are kept beside the thread (`threads/<threadId>.assets/<sha256>.<ext>`, 0600)
 * so the JSONL line only names them. Thumbnails made by the prompt box sit next to them.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { AcpThreadsError } from "../errors";
import type { ContextItem } from "../model/context";
import type { RuntimeEvent } from "../model/events";
import { writeFileAtomic } from "../store/atomic-write";
export { assetsDir } from "../store/paths";
import { fileUri } from "./refs";

/** Per image; every agent API we know accepts at least this (Anthropic's limit is 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Thumbnails are small by construction (the prompt box makes them at 256 px); anything bigger is refused. */
export const MAX_THUMB_BYTES = 256 * 1024;

const EXT: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};
export const IMAGE_MIME_TYPES = Object.keys(EXT);

/** The image type from the magic bytes, or undefined when the bytes are not a PNG, JPEG, GIF or WebP. */
export function sniffImageType(b: Uint8Array): string | undefined {
  const at = (i: number, ...bytes: number[]) => bytes.every((x, k) => b[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return undefined;
}

/** Validates image bytes into a context item; `name` is for the chip and error messages. */
export function imageItem(data: Uint8Array, name: string, opts: { path?: string; thumbData?: Uint8Array } = {}) {
  const mimeType = sniffImageType(data);
  if (!mimeType)
    throw new AcpThreadsError("usage", `${name} is not a PNG, JPEG, GIF or WebP image; only those can be attached`);
  if (data.byteLength > MAX_IMAGE_BYTES)
    throw new AcpThreadsError(
      "usage",
      `${name} is ${(data.byteLength / 1048576).toFixed(1)} MB; images are limited to ${MAX_IMAGE_BYTES / 1048576} MB`,
    );
  const thumb = opts.thumbData && opts.thumbData.byteLength <= MAX_THUMB_BYTES && sniffImageType(opts.thumbData);
  const item: ContextItem = {
    kind: "image",
    label: name,
    uri: opts.path ? fileUri(opts.path) : `attachment:${name}`,
    mimeType,
    bytes: data.byteLength,
    data,
    ...(opts.path ? { path: opts.path } : {}),
    ...(thumb ? { thumbData: opts.thumbData } : {}),
  };
  return item;
}

/** Reads an image file (CLI `--image`, explorer "Add file to thread") into a context item. */
export function readImageFile(path: string): ContextItem {
  if (!existsSync(path)) throw new AcpThreadsError("not_found", `no such image: ${path}`);
  const size = statSync(path).size;
  if (size > MAX_IMAGE_BYTES)
    throw new AcpThreadsError(
      "usage",
      `${path} is ${(size / 1048576).toFixed(1)} MB; images are limited to ${MAX_IMAGE_BYTES / 1048576} MB`,
    );
  return imageItem(readFileSync(path), basename(path), { path });
}

/** Writes bytes into the thread's asset folder under a content-addressed name; returns the file name. */
export function storeAsset(dir: string, data: Uint8Array, mimeType: string, suffix = ""): string {
  const name = `${createHash("sha256").update(data).digest("hex").slice(0, 24)}${suffix}.${EXT[mimeType] ?? "bin"}`;
  const path = join(dir, name);
  if (!existsSync(path)) writeFileAtomic(path, data, { mode: 0o600 });
  return name;
}

/**
 * Keeps an image item's bytes (and thumbnail) beside the thread and returns the item with `asset`/`thumb`
 * set, ready to be recorded. Items that are not images pass through.
 */
export function keepImage(item: ContextItem, dir: string): ContextItem {
  if (item.kind !== "image" || !item.data || !item.mimeType) return item;
  const asset = storeAsset(dir, item.data, item.mimeType);
  const thumbType = item.thumbData && sniffImageType(item.thumbData);
  const thumb = thumbType ? storeAsset(dir, item.thumbData!, thumbType, ".thumb") : undefined;
  return { ...item, asset, ...(thumb ? { thumb } : {}) };
}

/** Images without a thumbnail (attached by the CLI) are shown whole up to this size. */
const INLINE_IMAGE_BYTES = 1024 * 1024;

/**
 * Data URLs, by asset name, of the thumbnails of the images the user messages in `events` carry, read from the
 * thread's assets folder `dir` (an image without a thumbnail is shown whole when it is small enough). Read off the
 * caller's thread (the extension host's panels); a file that is gone or cannot be read has no thumbnail.
 */
export async function thumbnailsOf(dir: string, events: readonly RuntimeEvent[]): Promise<Record<string, string>> {
  const thumbs: Record<string, string> = {};
  for (const e of events) {
    if (e.type !== "user_text") continue;
    for (const ref of e.context ?? []) {
      const name = ref.kind === "image" ? (ref.thumb ?? ref.asset) : undefined;
      if (!name || /[\\/]/.test(name)) continue;
      const bytes = await readUpTo(join(dir, name), ref.thumb ? MAX_THUMB_BYTES : INLINE_IMAGE_BYTES);
      const mime = bytes && sniffImageType(bytes);
      if (mime) thumbs[name] = `data:${mime};base64,${bytes.toString("base64")}`;
    }
  }
  return thumbs;
}

/** The file's bytes when it is at most `max` bytes long; undefined when it is bigger, gone or unreadable. */
async function readUpTo(file: string, max: number): Promise<Buffer | undefined> {
  const size = (await stat(file).catch(() => undefined))?.size;
  return size === undefined || size > max ? undefined : await readFile(file).catch(() => undefined);
}
