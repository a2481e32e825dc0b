/**
 * Which new transcript files a bulk import hands to its second core (shard-import.ts). The shard is a separate,
 * empty index until it is spliced in, so a file goes there only with every file its import looks up: a Codex
 * fork or sub-agent rollout with its parent (inherited.ts drops the parent's copied history by looking the parent
 * up), a Claude session with its sub-agent files (their replays of parent messages are dropped the same way).
 * Files already in the index, compressed rollouts (their parent link is not read without inflating them) and
 * groups that link to a session already indexed stay with the main import. Groups are dealt out largest first to
 * the lighter side; both sides keep the caller's order (newest first, parents before sub-agent files).
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { ImportSpec } from "./importer";
import { isPacked } from "./packed";

/** The shard's side must have at least this much to read: a worker and its WASM SQLite take ~0.2 s to start. */
export const SHARD_MIN_BYTES = 8 * 1024 * 1024;

export interface ShardPlan {
  mine: ImportSpec[];
  theirs: ImportSpec[];
  theirBytes: number;
}

export interface PlanContext {
  /** True when the index already has this file (it resumes or skips it: the main import's job). */
  known(path: string): boolean;
  /** True when the index already has a session with this id (a Codex parent imported earlier). */
  indexedSession(id: string): boolean;
  minBytes?: number;
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const PARENT = /"(?:forked_from_id|parent_thread_id)"\s*:\s*"([^"]+)"/g;
const META_ID = /"payload"\s*:\s*\{\s*"id"\s*:\s*"([^"]+)"/;
const FIRST_LINE_CAP = 4 * 1024 * 1024;

/** One read buffer for every file the plan looks at (a fresh zero-filled 64 KB each was 800 MB at 12,500 files). */
const chunk = Buffer.allocUnsafe(65536);

/** The first line of a file (a Codex rollout's session_meta), read in 64 KB steps up to 4 MB. */
export function firstLine(path: string): string {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    for (let at = 0; at < FIRST_LINE_CAP;) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) break;
      const nl = chunk.subarray(0, n).indexOf(10);
      chunks.push(Buffer.from(chunk.subarray(0, nl >= 0 ? nl : n))); // a copy: the buffer is read into again
      if (nl >= 0) break;
      at += n;
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A Codex rollout's own id and the sessions it copies history from. */
function codexLinks(path: string): { id?: string; parents: string[] } {
  const line = firstLine(path);
  return {
    id: UUID.exec(path)?.[1] ?? META_ID.exec(line)?.[1],
    parents: [...line.matchAll(PARENT)].map((m) => m[1]),
  };
}

/** A Claude session file and its sub-agent files share a key: `<project>/<session>`. */
function claudeKey(path: string): string {
  const sub = /[\\/]subagents[\\/]/.exec(path);
  return sub ? path.slice(0, sub.index) : path.replace(/\.jsonl$/, "");
}

export function planShards(specs: ImportSpec[], ctx: PlanContext): ShardPlan | undefined {
  const minBytes = ctx.minBytes ?? SHARD_MIN_BYTES;
  /** group key → its specs' indexes, bytes, and whether it may go to the shard */
  const groups = new Map<string, { members: number[]; bytes: number; movable: boolean }>();
  const parentOf = new Map<string, string>(); // union-find over Codex session ids
  const root = (k: string): string => {
    let r = k;
    while (parentOf.has(r) && parentOf.get(r) !== r) r = parentOf.get(r)!;
    return r;
  };
  const keys: (string | undefined)[] = [];
  const sizes: number[] = [];
  const codexIds = new Map<number, { id?: string; parents: string[] }>();
  specs.forEach((s, i) => {
    sizes[i] = 0;
    if ((s.source !== "codex_rollout" && s.source !== "claude_code_jsonl") || ctx.known(s.path) || isPacked(s.path))
      return;
    try {
      sizes[i] = statSync(s.path).size;
      if (s.source === "codex_rollout") codexIds.set(i, codexLinks(s.path));
      keys[i] = s.source === "claude_code_jsonl" ? `c:${claudeKey(s.path)}` : undefined;
    } catch {
      sizes[i] = 0; // unreadable now: the main import says why
    }
  });
  const idKey = (id: string) => `x:${id}`;
  const freshIds = new Set([...codexIds.values()].flatMap((l) => (l.id ? [l.id] : [])));
  const pinned = new Set<string>(); // Codex groups that link to a session outside the new files
  for (const [i, l] of codexIds) {
    const own = idKey(l.id ?? `#${i}`);
    if (!parentOf.has(own)) parentOf.set(own, own);
    for (const p of l.parents) {
      if (!freshIds.has(p)) {
        if (ctx.indexedSession(p)) pinned.add(own);
        continue;
      }
      if (!parentOf.has(idKey(p))) parentOf.set(idKey(p), idKey(p));
      parentOf.set(root(own), root(idKey(p)));
    }
  }
  for (const [i, l] of codexIds) keys[i] = root(idKey(l.id ?? `#${i}`));
  const pinnedRoots = new Set([...pinned].map(root));
  specs.forEach((_, i) => {
    const k = keys[i];
    if (k === undefined) return;
    const g = groups.get(k) ?? { members: [], bytes: 0, movable: !pinnedRoots.has(k) };
    g.members.push(i);
    g.bytes += sizes[i];
    groups.set(k, g);
  });
  // a Claude group with a file already indexed (its parent synced earlier) stays whole with the main import
  specs.forEach((s, i) => {
    if (s.source === "claude_code_jsonl" && keys[i] === undefined && ctx.known(s.path)) {
      const g = groups.get(`c:${claudeKey(s.path)}`);
      if (g) g.movable = false;
    }
  });

  const movable = [...groups.values()].filter((g) => g.movable).sort((a, b) => b.bytes - a.bytes);
  let mineBytes = [...groups.values()].filter((g) => !g.movable).reduce((n, g) => n + g.bytes, 0);
  let theirBytes = 0;
  const theirs = new Set<number>();
  for (const g of movable) {
    if (theirBytes < mineBytes) {
      theirBytes += g.bytes;
      g.members.forEach((i) => theirs.add(i));
    } else mineBytes += g.bytes;
  }
  if (theirBytes < minBytes) return undefined;
  return {
    mine: specs.filter((_, i) => !theirs.has(i)),
    theirs: specs.filter((_, i) => theirs.has(i)),
    theirBytes,
  };
}
