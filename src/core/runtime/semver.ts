/**
 * Just enough of npm's semver to read a package's `engines.node`: versions (`v20.20.2`, `22.1.0-rc.1`) and
 * ranges with `>= > < <= =`, `^`, `~`, x-ranges (`22.x`, `*`, `22`), hyphen ranges (`20 - 22`), space-separated
 * AND and `||`. Prerelease tags are compared (a prerelease sorts before its release) but, unlike npm, a
 * prerelease version is not excluded from ranges that name none: Node's own versions carry no tags.
 */

export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

type Op = ">=" | ">" | "<" | "<=" | "=";
interface Bound {
  op: Op;
  v: Version;
}
/** One `||` alternative: every bound must hold. */
type ComparatorSet = Bound[];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
/** A partial version in a range: `1`, `1.2`, `1.2.3`, `1.x`, `*`, with optional prerelease on a full one. */
const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | null {
  const m = VERSION.exec(text.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ?? "" };
}

export function formatVersion(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}${v.prerelease ? `-${v.prerelease}` : ""}`;
}

function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePrerelease(a.prerelease, b.prerelease);
}

const v = (major: number, minor = 0, patch = 0, prerelease = ""): Version => ({ major, minor, patch, prerelease });

interface Partial {
  major?: number;
  minor?: number;
  patch?: number;
  prerelease: string;
}

function parsePartial(text: string): Partial | null {
  const m = PARTIAL.exec(text);
  if (!m) return null;
  const num = (s: string | undefined) => (s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s));
  const major = num(m[1]);
  const minor = major === undefined ? undefined : num(m[2]);
  const patch = minor === undefined ? undefined : num(m[3]);
  return { major, minor, patch, prerelease: patch === undefined ? "" : (m[4] ?? "") };
}

/** The first version above every version the partial names (`1.2` → 1.3.0, `1` → 2.0.0). */
function nextAfter(p: Partial): Version {
  if (p.minor === undefined) return v(p.major! + 1);
  return v(p.major!, p.minor + 1);
}

function low(p: Partial): Version {
  return v(p.major ?? 0, p.minor ?? 0, p.patch ?? 0, p.prerelease);
}

function isFull(p: Partial): boolean {
  return p.patch !== undefined;
}

/** One comparator (`>=1.2`, `^0.3`, `~1`, `1.x`, `*`) as plain bounds, or null when it is not one. */
function comparator(token: string): Bound[] | null {
  const m = /^(>=|<=|>|<|=|\^|~>?|)(.*)$/.exec(token)!;
  const op = m[1]!;
  const p = parsePartial(m[2]!);
  if (!p) return null;
  if (p.major === undefined) return op === "<" || op === ">" ? [{ op: "<", v: v(0) }] : [];
  switch (op) {
    case "":
    case "=":
      return isFull(p)
        ? [{ op: "=", v: low(p) }]
        : [
            { op: ">=", v: low(p) },
            { op: "<", v: nextAfter(p) },
          ];
    case ">=":
      return [{ op: ">=", v: low(p) }];
    case ">":
      return isFull(p) ? [{ op: ">", v: low(p) }] : [{ op: ">=", v: nextAfter(p) }];
    case "<":
      return [{ op: "<", v: low(p) }];
    case "<=":
      return isFull(p) ? [{ op: "<=", v: low(p) }] : [{ op: "<", v: nextAfter(p) }];
    case "~":
    case "~>":
      return [
        { op: ">=", v: low(p) },
        { op: "<", v: nextAfter(p) },
      ];
    case "^": {
      let upper: Version;
      if (p.major > 0 || p.minor === undefined) upper = v(p.major + 1);
      else if (p.minor > 0 || p.patch === undefined) upper = v(0, p.minor + 1);
      else upper = v(0, 0, p.patch + 1);
      return [
        { op: ">=", v: low(p) },
        { op: "<", v: upper },
      ];
    }
  }
  return null;
}

/** Parses a range; null when it is not one this evaluator understands. */
export function parseRange(range: string): ComparatorSet[] | null {
  const sets: ComparatorSet[] = [];
  for (const alternative of range.split("||")) {
    const text = alternative.trim().replace(/(>=|<=|>|<|=|\^|~>?)\s+/g, "$1");
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen) {
      const from = parsePartial(hyphen[1]!);
      const to = parsePartial(hyphen[2]!);
      if (!from || !to) return null;
      const set: Bound[] = from.major === undefined ? [] : [{ op: ">=", v: low(from) }];
      if (to.major !== undefined) set.push(isFull(to) ? { op: "<=", v: low(to) } : { op: "<", v: nextAfter(to) });
      sets.push(set);
      continue;
    }
    const set: Bound[] = [];
    for (const token of text.split(/\s+/).filter(Boolean)) {
      const bounds = comparator(token);
      if (!bounds) return null;
      set.push(...bounds);
    }
    sets.push(set);
  }
  return sets;
}

function holds(b: Bound, version: Version): boolean {
  const c = compareVersions(version, b.v);
  switch (b.op) {
    case ">=":
      return c >= 0;
    case ">":
      return c > 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case "=":
      return c === 0;
  }
}

/** Whether `version` lies in `range`; null when either cannot be parsed (callers then assume it does). */
export function satisfies(version: string | Version, range: string): boolean | null {
  const ver = typeof version === "string" ? parseVersion(version) : version;
  const sets = parseRange(range);
  if (!ver || !sets) return null;
  return sets.some((set) => set.every((b) => holds(b, ver)));
}

/**
 * The release line to suggest installing: the lowest major of an open-ended alternative (`>=22` → {22, open};
 * `^20.19 || >=22.12` → {22, open}), else the lowest major any alternative lets in (`^20.19` → {20, closed});
 * null when nothing satisfies the range.
 */
export function suggestMajor(range: string): { major: number; open: boolean } | null {
  const sets = parseRange(range);
  if (!sets) return null;
  const lines: { major: number; open: boolean }[] = [];
  for (const set of sets) {
    let from = v(0);
    for (const b of set)
      if ((b.op === ">=" || b.op === ">" || b.op === "=") && compareVersions(b.v, from) > 0) from = b.v;
    // a set nothing satisfies (`>=22 <21`) names no release line
    if (![from, v(from.major, 999, 999)].some((x) => set.every((b) => holds(b, x)))) continue;
    lines.push({ major: from.major, open: !set.some((b) => b.op === "<" || b.op === "<=" || b.op === "=") });
  }
  const byMajor = (a: { major: number }, b: { major: number }) => a.major - b.major;
  return lines.filter((l) => l.open).sort(byMajor)[0] ?? lines.sort(byMajor)[0] ?? null;
}
