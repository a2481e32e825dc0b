/**
 * "Clear data…": removes whole categories of the data home. A thread a live writer holds (a running session in
 * any window or CLI) is kept, with its traffic and ledger; caches the editor holds open are deleted and rebuilt
 * on their next use. After the threads go, what belonged to them (traffic, ledger files, blobs) goes too.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { liveWriter } from "../store/file-lock";
import { homeLayout } from "../store/paths";
import { isThreadId } from "../model/thread-id";
import { applyGc, planGc } from "./gc";
import { categoryPaths, footprint, type DataCategory } from "./measure";

export interface ClearResult {
  bytes: number;
  /** Threads kept because a live writer holds them. */
  keptLive: string[];
  failed: { path: string; error: string }[];
}

async function liveThreads(home: string): Promise<Set<string>> {
  const dir = homeLayout(home).threadsDir;
  const names = await readdir(dir).catch(() => [] as string[]);
  const ids = names.filter((n) => n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))).map((n) => n.slice(0, -6));
  return new Set(ids.filter((id) => liveWriter(join(dir, `${id}.jsonl`))));
}

export async function clearData(home: string, categories: readonly DataCategory[]): Promise<ClearResult> {
  const result: ClearResult = { bytes: 0, keptLive: [], failed: [] };
  const live = await liveThreads(home);
  result.keptLive = [...live];
  const paths = categoryPaths(home);
  const l = homeLayout(home);
  const remove = async (path: string) => {
    const { bytes } = await footprint(path);
    try {
      await rm(path, { recursive: true, force: true });
      result.bytes += bytes;
    } catch (err) {
      result.failed.push({ path, error: (err as Error).message });
    }
  };
  const keep = (name: string) => [...live].some((id) => name.startsWith(id));
  for (const c of new Set(categories)) {
    if (c === "threads" || c === "traffic" || c === "ledger" || c === "steer") {
      // per entry, so a live thread's files stay
      const dirs = c === "threads" ? [l.threadsDir] : c === "ledger" ? [l.ledgerDir] : paths[c];
      for (const dir of dirs)
        for (const name of await readdir(dir).catch(() => [] as string[]))
          // blobs go in the sweep below: those a live thread's ledger refers to stay
          if (!keep(name) && !(c === "ledger" && name === "blobs")) await remove(join(dir, name));
    } else for (const p of paths[c]) await remove(p);
  }
  // what the removed threads leave behind (traffic, ledger files, then blobs), at once
  if (categories.includes("threads") || categories.includes("trash") || categories.includes("ledger")) {
    const plan = await planGc(home, { trafficMaxBytes: 0, trashDays: Infinity, blobGraceMs: 0, auditMaxBytes: 0 });
    const swept = await applyGc({ ...plan, items: plan.items.filter((i) => i.category !== "audit") });
    result.bytes += swept.bytes;
    result.failed.push(...swept.failed);
  }
  return result;
}
