/** Finds transcript files under a root, newest first, optionally only recent ones and at most N. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export interface DiscoverOptions {
  /** Only files modified in the last N days (ignored when allHistory). Default 30. */
  sinceDays?: number;
  allHistory?: boolean;
  limitFiles?: number;
  now?: number;
}

export interface FoundFile {
  path: string;
  mtimeMs: number;
}

function walk(dir: string, out: FoundFile[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // unreadable or vanished folder: nothing to index there
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && (e.name.endsWith(".jsonl") || e.name.endsWith(".jsonl.zst"))) {
      try {
        out.push({ path: p, mtimeMs: statSync(p).mtimeMs });
      } catch {
        // raced with a delete
      }
    }
  }
}

export function discoverTranscripts(root: string, opts: DiscoverOptions = {}): FoundFile[] {
  const out: FoundFile[] = [];
  walk(root, out);
  const since = opts.allHistory ? -Infinity : (opts.now ?? Date.now()) - (opts.sinceDays ?? 30) * 86_400_000;
  const recent = out.filter((f) => f.mtimeMs >= since);
  // newest first; path breaks ties so the order is deterministic
  recent.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  return opts.limitFiles !== undefined ? recent.slice(0, opts.limitFiles) : recent;
}
