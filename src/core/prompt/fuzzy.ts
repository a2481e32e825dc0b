/**
 * Fuzzy matching of workspace paths for `@` completion, fast enough to run on every keystroke over 100k
 * paths: a subsequence test rejects most paths in one pass over the lowercased string, and only candidates
 * are scored. The score favours matches in the file name, at word starts (after `/ _ - .`, camelCase humps)
 * and in runs, then shorter paths. Paths are workspace-relative with `/`; folders end with `/`.
 */

export interface PathMatch {
  path: string;
  score: number;
  /** Indexes of the matched characters in `path` (for highlighting). */
  positions: number[];
}

/** After `/ \\ _ - .` or a space, or an uppercase letter after a lowercase one (ASCII camelCase). */
function isWordStart(original: string, i: number): boolean {
  if (i === 0) return true;
  const prev = original.charCodeAt(i - 1);
  if (prev === 47 || prev === 92 || prev === 95 || prev === 45 || prev === 46 || prev === 32) return true;
  const c = original.charCodeAt(i);
  return c >= 65 && c <= 90 && prev >= 97 && prev <= 122;
}

/** Greedy in-order match of `q` in `lower` from `from`; scores it, or returns -1 when `q` is not a subsequence. */
function scoreFrom(q: string, lower: string, original: string, from: number, positions: number[] | null): number {
  let score = 0;
  let last = -2;
  let i = from;
  for (let k = 0; k < q.length; k++) {
    const ch = q[k]!;
    i = lower.indexOf(ch, i);
    if (i < 0) return -1;
    // Prefer a later occurrence that starts a word when the greedy one sits inside a word (same path segment).
    let start = isWordStart(original, i);
    if (last !== i - 1 && !start) {
      const slash = lower.indexOf("/", i + 1);
      for (let j = lower.indexOf(ch, i + 1); j >= 0 && (slash < 0 || j < slash); j = lower.indexOf(ch, j + 1)) {
        if (isWordStart(original, j)) {
          i = j;
          start = true;
          break;
        }
      }
    }
    score += start ? 9 : 1;
    if (last === i - 1) score += 6;
    else if (last >= 0) score -= Math.min(3, (i - last) / 8);
    positions?.push(i);
    last = i;
    i++;
  }
  return score;
}

function isSubsequence(q: string, lower: string, from: number): boolean {
  let i = from;
  for (let k = 0; k < q.length; k++) {
    i = lower.indexOf(q[k]!, i);
    if (i < 0) return false;
    i++;
  }
  return true;
}

/** Bit per letter / digit class: a path lacking a query character is rejected without a scan. */
function charMask(lower: string): number {
  let mask = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 97 && c <= 122) mask |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) mask |= 1 << 26;
  }
  return mask;
}

const nameStartOf = (path: string): number =>
  path.lastIndexOf("/", path.endsWith("/") ? path.length - 2 : path.length - 1) + 1;

/** Scores one lowercased, slash-normalized query against a path; -1 when it does not match. */
function scorePath(q: string, path: string, lower: string, nameStart: number, positions: number[] | null): number {
  if (!q) return 0;
  const nameLength = (path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length) - nameStart;
  if (q.indexOf("/") < 0 && isSubsequence(q, lower, nameStart)) {
    const s = scoreFrom(q, lower, path, nameStart, positions);
    if (s >= 0) {
      let bonus = 40;
      if (lower.startsWith(q, nameStart)) bonus += 30;
      if (nameLength === q.length) bonus += 20;
      return s + bonus - path.length / 32;
    }
    if (positions) positions.length = 0;
  }
  if (!isSubsequence(q, lower, 0)) return -1;
  const s = scoreFrom(q, lower, path, 0, positions);
  return s < 0 ? -1 : s - path.length / 32;
}

const normalizeQuery = (query: string) => query.toLowerCase().replace(/\s+/g, "").replace(/\\/g, "/");

/** Scores one path against a query; undefined when it does not match. */
export function matchPath(query: string, path: string): PathMatch | undefined {
  const positions: number[] = [];
  const score = scorePath(normalizeQuery(query), path, path.toLowerCase(), nameStartOf(path), positions);
  return score < 0 ? undefined : { path, score, positions };
}

/** A mutable set of paths with a fuzzy top-k search. */
export class PathIndex {
  #paths: string[] = [];
  #lower: string[] = [];
  #nameStart: number[] = [];
  #mask: number[] = [];
  #at = new Map<string, number>();
  /** Typing extends the query: the next search only scans what matched the previous one. */
  #last: { query: string; hits: number[] } | undefined;

  constructor(paths: Iterable<string> = []) {
    for (const p of paths) this.add(p);
  }

  get size(): number {
    return this.#paths.length;
  }

  has(path: string): boolean {
    return this.#at.has(path);
  }

  /** Every path, in insertion order (a copy). */
  paths(): string[] {
    return [...this.#paths];
  }

  clear(): void {
    this.#paths = [];
    this.#lower = [];
    this.#nameStart = [];
    this.#mask = [];
    this.#at.clear();
    this.#last = undefined;
  }

  add(path: string): void {
    if (this.#at.has(path)) return;
    this.#last = undefined;
    const lower = path.toLowerCase();
    this.#at.set(path, this.#paths.length);
    this.#paths.push(path);
    this.#lower.push(lower);
    this.#nameStart.push(nameStartOf(path));
    this.#mask.push(charMask(lower));
  }

  /** Removes a path (swap with the last: O(1)). */
  delete(path: string): void {
    const i = this.#at.get(path);
    if (i === undefined) return;
    this.#last = undefined;
    const last = this.#paths.length - 1;
    if (i !== last) {
      this.#paths[i] = this.#paths[last]!;
      this.#lower[i] = this.#lower[last]!;
      this.#nameStart[i] = this.#nameStart[last]!;
      this.#mask[i] = this.#mask[last]!;
      this.#at.set(this.#paths[i]!, i);
    }
    this.#paths.pop();
    this.#lower.pop();
    this.#nameStart.pop();
    this.#mask.pop();
    this.#at.delete(path);
  }

  /** Removes every path under a folder (`dir/`), e.g. after a folder was deleted. */
  deleteUnder(dir: string): void {
    const prefix = dir.endsWith("/") ? dir : `${dir}/`;
    for (const p of this.#paths.filter((p) => p.startsWith(prefix) || p === prefix)) this.delete(p);
  }

  /** The best `limit` matches, best first; ties broken by the shorter, then alphabetically smaller path. */
  search(query: string, limit = 50, filter?: (path: string) => boolean): PathMatch[] {
    const q = normalizeQuery(query);
    const qmask = charMask(q);
    const paths = this.#paths;
    const lowers = this.#lower;
    const masks = this.#mask;
    const starts = this.#nameStart;
    // top-k kept sorted, best first: parallel arrays of index and score, no allocation per candidate
    const topI: number[] = [];
    const topS: number[] = [];
    const better = (s: number, i: number, s2: number, i2: number) =>
      s !== s2
        ? s > s2
        : paths[i]!.length !== paths[i2]!.length
          ? paths[i]!.length < paths[i2]!.length
          : paths[i]! < paths[i2]!;
    const prev = this.#last && q.startsWith(this.#last.query) ? this.#last.hits : undefined;
    const hits: number[] = [];
    for (let k = 0, n = prev ? prev.length : paths.length; k < n; k++) {
      const i = prev ? prev[k]! : k;
      if ((masks[i]! & qmask) !== qmask) continue;
      const s = scorePath(q, paths[i]!, lowers[i]!, starts[i]!, null);
      if (s < 0) continue;
      hits.push(i);
      if (topI.length === limit && !better(s, i, topS[limit - 1]!, topI[limit - 1]!)) continue;
      if (filter && !filter(paths[i]!)) continue;
      let at = topI.length;
      while (at > 0 && better(s, i, topS[at - 1]!, topI[at - 1]!)) at--;
      topI.splice(at, 0, i);
      topS.splice(at, 0, s);
      if (topI.length > limit) {
        topI.pop();
        topS.pop();
      }
    }
    this.#last = q ? { query: q, hits } : undefined;
    return topI.map((i, k) => {
      const positions: number[] = [];
      scorePath(q, paths[i]!, lowers[i]!, starts[i]!, positions);
      return { path: paths[i]!, score: topS[k]!, positions };
    });
  }
}
