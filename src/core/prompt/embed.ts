/** Text helpers for embedding context: line slices, binary detection, size limits and MIME types by name. */
import { extname } from "node:path";
import type { LineRange } from "../model/context";

/** One embedded text may be this long (characters); longer files go as links, longer texts are cut. */
export const MAX_EMBED_CHARS = 256 * 1024;
/** All embedded text of one prompt together. */
export const MAX_PROMPT_EMBED_CHARS = 1024 * 1024;

/** A NUL in the first 8 KiB: not text (what git and VS Code use too). */
export function looksBinary(text: string): boolean {
  return text.slice(0, 8192).includes("\u0000");
}

/** Lines `range.start..range.end` (1-based, inclusive) of `text`, clamped to what exists. */
export function sliceLines(text: string, range: LineRange): string {
  const lines = text.split(/(?<=\n)/);
  return lines.slice(Math.max(0, range.start - 1), Math.max(0, range.end)).join("");
}

/** Cuts `text` to `max` characters with a visible marker. */
export function cut(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  return { text: `${text.slice(0, max)}\n… [cut at ${max.toLocaleString("en-US")} characters]\n`, cut: true };
}

const MIME_BY_EXT: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".tsx": "text/x-typescript",
  ".py": "text/x-python",
  ".rs": "text/x-rust",
  ".go": "text/x-go",
  ".java": "text/x-java",
  ".c": "text/x-c",
  ".h": "text/x-c",
  ".cpp": "text/x-c++",
  ".html": "text/html",
  ".css": "text/css",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".toml": "application/toml",
  ".sh": "text/x-shellscript",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

export function mimeTypeOf(path: string): string | undefined {
  return MIME_BY_EXT[extname(path).toLowerCase()];
}
