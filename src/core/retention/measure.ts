/**
 * What the data home holds, per category, for "ACP Threads: Clear data…" and `acp-threads gc`: each category is
 * a set of paths under the home (files or folders), measured asynchronously (never a sync call per file).
 */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { homeLayout } from "../store/paths";

export const DATA_CATEGORIES = [
  "threads",
  "trash",
  "exec",
  "traffic",
  "ledger",
  "steer",
  "recall",
  "indexes",
  "audit",
  "agents",
  "runtimes",
] as const;
export type DataCategory = (typeof DATA_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<DataCategory, string> = {
  threads: "Threads (history of every thread)",
  trash: "Deleted threads (the trash)",
  exec: "Exec runs (their output logs)",
  traffic: "Protocol traffic (for bug bundles)",
  ledger: "Edit ledger (recorded file versions for review and restore)",
  steer: "Steering requests (to a thread another process runs)",
  recall: "Recall index (search over past agent sessions)",
  indexes: "Thread and usage indexes (caches, rebuilt on demand)",
  audit: "Permission audit log",
  agents: "Registry agents (installed from the ACP Registry)",
  runtimes: "Managed Node runtimes",
};

/** The paths (files or folders) of each category under `home`. */
export function categoryPaths(home: string): Record<DataCategory, string[]> {
  const l = homeLayout(home);
  const db = (p: string) => [p, `${p}-journal`, `${p}-wal`, `${p}-shm`];
  return {
    threads: [l.threadsDir],
    trash: [l.trashDir],
    exec: [l.execDir],
    traffic: [l.trafficDir, l.protocolLogsDir],
    ledger: [l.ledgerDir],
    steer: [l.steerDir],
    recall: db(l.recallDb),
    indexes: [...db(l.threadIndexDb), ...db(l.usageDb), l.compileCacheDir],
    audit: [l.auditLog, rotatedAuditPath(l.auditLog)],
    agents: [l.agentsDir],
    runtimes: [l.runtimesDir],
  };
}

export const rotatedAuditPath = (auditLog: string): string => auditLog.replace(/\.jsonl$/, ".1.jsonl");

export interface Footprint {
  bytes: number;
  files: number;
}

/** Bytes and files under `path` (a file or a folder; missing = nothing). Symlinks count as themselves. */
export async function footprint(path: string): Promise<Footprint> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return { bytes: 0, files: 0 };
  if (!st.isDirectory()) return { bytes: st.size, files: 1 };
  const out: Footprint = { bytes: 0, files: 0 };
  const names = await readdir(path).catch(() => [] as string[]);
  for (const name of names) {
    const f = await footprint(join(path, name));
    out.bytes += f.bytes;
    out.files += f.files;
  }
  return out;
}

export interface CategorySize extends Footprint {
  category: DataCategory;
  label: string;
}

/** Every category's size, in DATA_CATEGORIES order. */
export async function measureHome(home: string): Promise<CategorySize[]> {
  const paths = categoryPaths(home);
  const out: CategorySize[] = [];
  for (const category of DATA_CATEGORIES) {
    const sum: Footprint = { bytes: 0, files: 0 };
    for (const p of paths[category]) {
      const f = await footprint(p);
      sum.bytes += f.bytes;
      sum.files += f.files;
    }
    out.push({ category, label: CATEGORY_LABELS[category], ...sum });
  }
  return out;
}
