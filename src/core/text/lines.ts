/** Text as lines that keep their terminators (`\n` or `\r\n`), so joining them gives the text back exactly. */

export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** Character offset of the start of each line, plus one past the end: `offsets[lines.length] === text.length`. */
export function lineOffsets(lines: readonly string[]): number[] {
  const offsets = [0];
  for (const l of lines) offsets.push(offsets[offsets.length - 1]! + l.length);
  return offsets;
}

/**
 * `text` with the line endings of `like`: an agent that writes `\n` into a CRLF file would otherwise change every
 * line. Only converts when `like` uses CRLF and `text` has no CRLF at all.
 */
export function matchEol(text: string, like: string): string {
  if (!like.includes("\r\n") || text.includes("\r\n")) return text;
  return text.replace(/\n/g, "\r\n");
}
