/**
 * Review comments as a prompt (issue #25 item 4): `path:line: comment` / `path:start-end: comment` lines (the
 * CLI's `run --review FILE`, and how the editor's comments read as text), the code each one is about quoted
 * from the file, and the prompt parts that send them: each quote an embedded `resource` (a selection with its
 * text, built by blocks.ts) when the agent takes embedded context, a fenced block in the text otherwise.
 * Paths outside the workspace are refused. Pure apart from the `read` the caller passes.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { AcpThreadsError } from "../errors";
import type { LineRange, PromptPart } from "../model/context";
import { selectionRef } from "./refs";

/** One parsed line of a review file: the path as written. */
export interface ReviewLine {
  path: string;
  range: LineRange;
  body: string;
  /** 1-based line of the review file it came from. */
  line: number;
}

/** A comment ready to send: absolute path, the lines, the code quoted, the comment. */
export interface ReviewComment {
  path: string;
  range: LineRange;
  quote: string;
  body: string;
}

export const DEFAULT_REVIEW_INTRO =
  "Review comments on your changes. Each names a file and lines, quotes the code as it is now, and says what to change. Please address them.";

const LINE = /^(.+?):(\d+)(?:-(\d+))?:[ \t]*(.*?)[ \t]*$/;

/** Lines of a review file; blank lines and `#` lines are skipped. Any other line that does not parse is refused. */
export function parseReview(text: string, source = "review"): ReviewLine[] {
  const out: ReviewLine[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (!line.trim() || line.trimStart().startsWith("#")) return;
    const where = `${source}:${i + 1}`;
    const m = LINE.exec(line);
    if (!m || !m[4])
      throw new AcpThreadsError(
        "usage",
        `${where}: cannot read '${clip(line)}': expected 'path:line: comment' or 'path:start-end: comment'`,
      );
    const start = Number(m[2]);
    const end = m[3] === undefined ? start : Number(m[3]);
    if (start < 1 || end < start || !Number.isSafeInteger(end))
      throw new AcpThreadsError(
        "usage",
        `${where}: lines must be 1-based with start ≤ end, got ${m[2]}-${m[3] ?? m[2]}`,
      );
    out.push({ path: m[1]!.trim(), range: { start, end }, body: m[4], line: i + 1 });
  });
  if (!out.length)
    throw new AcpThreadsError(
      "usage",
      `${source} has no review comments (expected lines like 'src/app.ts:12: rename this' or 'src/app.ts:3-7: comment')`,
    );
  return out;
}

/** One comment as a review line (newlines in the comment become spaces, so it reads back as one line). */
export function formatReviewLine(c: { path: string; range: LineRange; body: string }, root?: string): string {
  const path = root ? relative(root, c.path) || c.path : c.path;
  const lines = c.range.start === c.range.end ? `${c.range.start}` : `${c.range.start}-${c.range.end}`;
  return `${path.split(sep).join("/")}:${lines}: ${c.body.replace(/\s*\r?\n\s*/g, " ").trim()}`;
}

/** True when `abs` is `root` or lies under it. */
function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * The absolute path of a review path, resolved against the workspace `root`; a path outside it (`../x`, an
 * absolute path elsewhere, a symlink pointing out) is refused.
 */
export function reviewPath(path: string, root: string, where = "review"): string {
  const abs = resolve(root, path);
  if (!inside(resolve(root), abs) || !inside(real(resolve(root)), real(abs)))
    throw new AcpThreadsError(
      "path_outside_workspace",
      `${where}: ${path} is outside the workspace (${root}); only its files can be reviewed`,
    );
  return abs;
}

/** Lines `range` of `text` (CRLF read as LF), without the last line break; lines past the end are refused. */
export function quoteLines(text: string, range: LineRange, name = "the file"): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const count = text === "" ? 0 : lines.length;
  if (range.end > count)
    throw new AcpThreadsError(
      "usage",
      `${name}: line ${range.end} is past the end of the file (${count} line${count === 1 ? "" : "s"})`,
    );
  return lines.slice(range.start - 1, range.end).join("\n");
}

/**
 * Review lines → comments with their code: paths checked against `root`, files read with `read` (undefined:
 * no such file). Every line is checked before anything is returned, so one bad line sends nothing.
 */
export function reviewComments(
  lines: readonly ReviewLine[],
  root: string,
  read: (absPath: string) => string | undefined,
  source = "review",
): ReviewComment[] {
  return lines.map((l) => {
    const where = `${source}:${l.line}`;
    const path = reviewPath(l.path, root, where);
    const text = read(path);
    if (text === undefined) throw new AcpThreadsError("usage", `${where}: no such file ${l.path}`);
    return { path, range: l.range, body: l.body, quote: quoteLines(text, l.range, `${where}: ${l.path}`) };
  });
}

/** A fence longer than any run of backticks in `code`. */
function fence(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  return "`".repeat(Math.max(3, longest + 1));
}

export interface ReviewPromptOptions {
  /** The agent advertises `promptCapabilities.embeddedContext`: quotes go as embedded resources. */
  embedded: boolean;
  /** Paths are shown relative to it. */
  root: string;
  intro?: string;
}

/** The review as prompt parts: the intro, then per comment `n. path:lines: comment` and its quoted code. */
export function reviewPromptParts(comments: readonly ReviewComment[], o: ReviewPromptOptions): PromptPart[] {
  if (!comments.length) throw new AcpThreadsError("usage", "the review has no comments to send");
  const parts: PromptPart[] = [];
  let text = `${(o.intro ?? DEFAULT_REVIEW_INTRO).trim()}\n`;
  comments.forEach((c, i) => {
    text += `\n${i + 1}. ${formatReviewLine(c, o.root)}\n`;
    if (o.embedded) {
      parts.push({ type: "text", text });
      parts.push({ type: "context", item: { ...selectionRef(c.path, c.range), content: `${c.quote}\n` } });
      text = "\n";
    } else {
      const f = fence(c.quote);
      text += `${f}\n${c.quote}\n${f}\n`;
    }
  });
  if (text.trim()) parts.push({ type: "text", text });
  return parts;
}

const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s);
