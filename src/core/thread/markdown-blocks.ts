/**
 * The small Markdown pieces a thread export is made of, safe for any text an agent or a tool produced: fenced
 * blocks whose fence is longer than any backtick run inside, HTML-escaped `<summary>` lines, unified diffs of
 * an ACP `diff` tool content, and a cap on how much of one output goes in (exports stay readable on GitHub).
 */
import { createTwoFilesPatch } from "diff";
import { isAbsolute, relative, sep } from "node:path";

/** One output block (a tool's output, an exec run's stream) is cut to this many characters. */
export const MAX_BLOCK_CHARS = 64 * 1024;

/** A fenced code block that no content can close early. */
export function fence(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${lang}\n${text.replace(/\n$/, "")}\n${ticks}`;
}

/** Text for an HTML context (`<summary>`, attribute-free): `&`, `<`, `>` escaped, one line. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\s*\n\s*/g, " ");
}

/** Inline Markdown text (link labels, table cells): characters that would start markup are escaped. */
export function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>|#])/g, "\\$1").replace(/\s*\n\s*/g, " ");
}

/** At most MAX_BLOCK_CHARS of `text`, saying how much was left out. */
export function capped(text: string, max = MAX_BLOCK_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${(text.length - max).toLocaleString("en-US")} more characters not exported)`;
}

/** `path` relative to the workspace when it is inside it (forward slashes), else as it is. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : path;
}

/** A unified diff of one file change (`oldText` null: a new file). Empty when nothing changed. */
export function unifiedFileDiff(path: string, oldText: string | null | undefined, newText: string): string {
  const before = oldText ?? "";
  if (before === newText) return "";
  const patch = createTwoFilesPatch(
    oldText == null ? "/dev/null" : `a/${path}`,
    `b/${path}`,
    before,
    newText,
    undefined,
    undefined,
    { context: 3 },
  );
  // drop the "===" separator line createTwoFilesPatch starts with
  return patch.replace(/^=+\n/, "").replace(/\n$/, "");
}

/** A link target for a relative path: each segment URL-encoded (spaces, parentheses), slashes kept. */
export function linkTarget(path: string): string {
  return path
    .split("/")
    .map((s) => encodeURIComponent(s).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join("/");
}
