/**
 * Three-way line merge (diff3): `ours` and `theirs` both changed `base`; changes to different lines always merge,
 * and only regions both sides changed differently are conflicts. Built on the Myers line diff of each side.
 *
 * Two hunks interact when their base ranges overlap, or when both insert at the same point (their order is
 * unknown). A change right next to another one (adjacent lines, an insertion just before or after a changed
 * block) is not a conflict. Both sides making the same change is not a conflict either.
 */
import { diffLines, type LineHunk } from "./line-diff";

export interface MergeConflict {
  /** Base line range [baseStart, baseEnd) both sides changed. */
  baseStart: number;
  baseEnd: number;
  base: string[];
  ours: string[];
  theirs: string[];
}

export type MergeRegion = { kind: "ok"; lines: string[] } | { kind: "conflict"; conflict: MergeConflict };

export interface Merge3 {
  regions: MergeRegion[];
  conflicts: MergeConflict[];
  /** Hunks (in `ours` line numbers) that bring `theirs`' changes into `ours`: the edits of a clean merge. */
  theirsOnOurs: LineHunk[];
}

type Side = "ours" | "theirs";
type Tagged = LineHunk & { side: Side };

export function merge3(base: readonly string[], ours: readonly string[], theirs: readonly string[]): Merge3 {
  const hunks: Tagged[] = [
    ...diffLines(base, ours).map((h) => ({ ...h, side: "ours" as const })),
    ...diffLines(base, theirs).map((h) => ({ ...h, side: "theirs" as const })),
  ].sort((x, y) => x.start - y.start || x.end - y.end);
  const regions: MergeRegion[] = [];
  const conflicts: MergeConflict[] = [];
  const theirsOnOurs: LineHunk[] = [];
  let oursPos = 0; // where `pos` (in base) is in ours: between groups ours equals base
  const emit = (lines: string[]) => {
    if (!lines.length) return;
    const last = regions[regions.length - 1];
    if (last?.kind === "ok") last.lines.push(...lines);
    else regions.push({ kind: "ok", lines: [...lines] });
  };
  let pos = 0;
  for (let i = 0; i < hunks.length;) {
    const group = [hunks[i++]!];
    let start = group[0]!.start;
    let end = group[0]!.end;
    while (i < hunks.length) {
      const h = hunks[i]!;
      const overlaps = h.start < end;
      const sameInsertPoint =
        h.start === end && h.start === h.end && group.some((g) => g.start === g.end && g.start === h.start);
      if (!overlaps && !sameInsertPoint) break;
      group.push(h);
      end = Math.max(end, h.end);
      i++;
    }
    start = Math.min(start, ...group.map((g) => g.start));
    emit(base.slice(pos, start) as string[]);
    oursPos += start - pos;
    pos = end;
    const sideLines = (side: Side) =>
      apply(
        base,
        group.filter((g) => g.side === side),
        start,
        end,
      );
    const o = sideLines("ours");
    const from = oursPos;
    oursPos += o.length;
    if (group.every((g) => g.side === "ours")) {
      emit(o);
      continue;
    }
    const t = sideLines("theirs");
    if (group.every((g) => g.side === "theirs")) {
      emit(t);
      theirsOnOurs.push({ start: from, end: from + o.length, lines: t });
      continue;
    }
    if (o.length === t.length && o.every((l, k) => l === t[k])) {
      emit(o);
      continue;
    }
    const conflict = { baseStart: start, baseEnd: end, base: base.slice(start, end) as string[], ours: o, theirs: t };
    conflicts.push(conflict);
    regions.push({ kind: "conflict", conflict });
  }
  emit(base.slice(pos) as string[]);
  return { regions, conflicts, theirsOnOurs };
}

/** Base lines [start, end) with one side's hunks (all inside that range) applied. */
function apply(base: readonly string[], hunks: readonly LineHunk[], start: number, end: number): string[] {
  const out: string[] = [];
  let pos = start;
  for (const h of hunks) {
    out.push(...base.slice(pos, h.start), ...h.lines);
    pos = h.end;
  }
  out.push(...base.slice(pos, end));
  return out;
}

/** The merged lines with every conflict taken from one side. */
export function resolveAll(merge: Merge3, side: Side | "base"): string[] {
  return merge.regions.flatMap((r) => (r.kind === "ok" ? r.lines : r.conflict[side]));
}

/**
 * The merged text with diff3-style conflict markers (`<<<<<<<`, `|||||||`, `=======`, `>>>>>>>`), which VS Code's
 * merge editor and its inline conflict actions understand.
 */
export function withConflictMarkers(
  merge: Merge3,
  labels: { ours: string; base: string; theirs: string },
  eol = "\n",
): string {
  const out: string[] = [];
  const block = (lines: string[]) => {
    for (const l of lines) out.push(/\n$/.test(l) ? l : l + eol);
  };
  for (const r of merge.regions) {
    if (r.kind === "ok") {
      out.push(...r.lines);
      continue;
    }
    const last = out[out.length - 1];
    if (last !== undefined && !last.endsWith("\n")) out[out.length - 1] = last + eol;
    out.push(`<<<<<<< ${labels.ours}${eol}`);
    block(r.conflict.ours);
    out.push(`||||||| ${labels.base}${eol}`);
    block(r.conflict.base);
    out.push(`=======${eol}`);
    block(r.conflict.theirs);
    out.push(`>>>>>>> ${labels.theirs}${eol}`);
  }
  return out.join("");
}

/** Whether a text still has unresolved conflict markers. */
export function hasConflictMarkers(text: string): boolean {
  return /^<<<<<<< .*$[\s\S]*^=======\r?$[\s\S]*^>>>>>>> /m.test(text);
}
