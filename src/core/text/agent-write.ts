/**
 * An agent's write to a file the user has open: the agent computed `next` from `base` (what it last read), the
 * buffer now holds `current` (the user may have typed since). The result is either the edits that turn `current`
 * into "current plus the agent's changes" (one edit per changed region, so the rest of the buffer, its undo stack,
 * markers and cursors stay), or the conflicts to show the user.
 */
import { editsBetween, type TextEdit } from "./edits";
import { lineOffsets, matchEol, splitLines } from "./lines";
import { merge3, resolveAll, withConflictMarkers, type Merge3, type MergeConflict } from "./merge3";

export type AgentWriteMerge =
  | { kind: "clean"; text: string; edits: TextEdit[] }
  | {
      kind: "conflict";
      merge: Merge3;
      conflicts: MergeConflict[];
      /** The merged text with conflict markers (yours / what the agent read / agent). */
      marked: string;
      /** The text if every conflict goes the agent's way, or the user's way. */
      agentWins: string;
      userWins: string;
      /** Every conflict left at `base` (what VS Code's merge editor starts from). */
      unresolved: string;
      /** 1-based line in `current` where the first conflict starts. */
      firstConflictLine: number;
    };

export const MARKER_LABELS = { ours: "yours (unsaved)", base: "what the agent read", theirs: "agent" };

export function mergeAgentWrite(base: string, next: string, current: string): AgentWriteMerge {
  const eolSource = current || base;
  const proposed = matchEol(next, eolSource);
  if (base === current) return { kind: "clean", text: proposed, edits: editsBetween(current, proposed) };
  const ours = splitLines(current);
  const m = merge3(splitLines(base), ours, splitLines(proposed));
  if (m.conflicts.length === 0) {
    const offsets = lineOffsets(ours);
    const edits = m.theirsOnOurs.map((h) => ({
      start: offsets[h.start]!,
      end: offsets[h.end]!,
      text: h.lines.join(""),
    }));
    return { kind: "clean", text: resolveAll(m, "theirs").join(""), edits };
  }
  // where the first conflict sits in the user's buffer: count the lines before it
  let line = 1;
  for (const r of m.regions) {
    if (r.kind === "conflict") break;
    line += r.lines.length;
  }
  return {
    kind: "conflict",
    merge: m,
    conflicts: m.conflicts,
    marked: withConflictMarkers(m, MARKER_LABELS, eolSource.includes("\r\n") ? "\r\n" : "\n"),
    agentWins: resolveAll(m, "theirs").join(""),
    userWins: resolveAll(m, "ours").join(""),
    unresolved: resolveAll(m, "base").join(""),
    firstConflictLine: line,
  };
}
