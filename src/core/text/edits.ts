/** Character-range edits of a text, as a WorkspaceEdit applies them to a buffer. */
import { diffLines } from "./line-diff";
import { lineOffsets, splitLines } from "./lines";

export interface TextEdit {
  /** Character offsets into the text the edit applies to. */
  start: number;
  end: number;
  text: string;
}

/** The smallest line edits that turn `from` into `to` (one per changed region, nothing for unchanged lines). */
export function editsBetween(from: string, to: string): TextEdit[] {
  const a = splitLines(from);
  const offsets = lineOffsets(a);
  return diffLines(a, splitLines(to)).map((h) => ({
    start: offsets[h.start]!,
    end: offsets[h.end]!,
    text: h.lines.join(""),
  }));
}

/** Applies edits (non-overlapping, any order) to a string; the same thing a WorkspaceEdit does to a buffer. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((x, y) => y.start - x.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
