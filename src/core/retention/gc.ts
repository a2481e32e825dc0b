/**
 * Garbage collection of the data home: what outlives its thread, and the caps. A plan first (`planGc`, read-only,
 * what `--dry-run` prints), then `applyGc`. Collected:
 * - threads in the trash longer than `trashDays`, with everything of theirs (assets, traffic, ledger);
 * - traffic files and ledger files of threads that are gone (neither in the threads folder nor in the trash);
 * - traffic over its caps: files older than `trafficMaxAgeDays`, then the oldest until the total is under
 *   `trafficMaxBytes` (the traffic of a thread a live writer holds is kept);
 * - ledger blobs no ledger file (nor a folder baseline cache) refers to, once older than `blobGraceMs` (a live
 *   session's baseline copies are referred to only in its memory until a turn records them);
 * - steering requests and answers of threads no process runs any more (`steer/<threadId>/`), once older than
 *   `steerGraceMs` (a request is written only while a process holds its thread, and answered within seconds);
 * - the permission audit log, rotated (one older part kept) once past `auditMaxBytes`.
 * Everything runs on async file calls.
 */
import { lstat, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { liveWriter } from "../store/file-lock";
import { assetsDir, homeLayout, type HomeLayout } from "../store/paths";
import { isThreadId } from "../model/thread-id";
import { formatBytes } from "./bytes";
import { GC_DEFAULTS } from "./gc-defaults";
import { footprint, rotatedAuditPath, type DataCategory } from "./measure";

export interface GcOptions {
  /** Threads deleted (moved to the trash) longer ago than this are purged. Default 30. */
  trashDays?: number;
  /** Total size cap of the traffic folder. Default 512 MiB; 0 = no cap. */
  trafficMaxBytes?: number;
  /** Traffic files not written for this long are removed. Default 0 = no age cap. */
  trafficMaxAgeDays?: number;
  /** The audit log is rotated past this size. Default 8 MiB. */
  auditMaxBytes?: number;
  /** Unreferenced blobs younger than this are kept. Default 2 days. */
  blobGraceMs?: number;
  /** Steering files of a thread no process runs are kept while younger than this. Default 10 minutes. */
  steerGraceMs?: number;
  now?: number;
  /** Only these categories (the editor's periodic pass: traffic and audit, no trash purge, no blob scan). */
  only?: readonly DataCategory[];
}

export interface GcItem {
  category: DataCategory;
  path: string;
  bytes: number;
  action: "delete" | "rotate";
  reason: string;
}

export interface GcPlan {
  items: GcItem[];
  bytes: number;
}

const DAY = 24 * 3600 * 1000;
const BLOB_REF = /"id":"([0-9a-f]{40})"/g;

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

async function statOf(path: string) {
  return lstat(path).catch(() => undefined);
}

/** Thread ids with a file in `dir` (`<id>.jsonl`). */
async function threadIdsIn(dir: string): Promise<Set<string>> {
  return new Set(
    (await names(dir)).filter((n) => n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))).map((n) => n.slice(0, -6)),
  );
}

/** `<id>.ndjson` or `<id>.1.ndjson` → id. */
const trafficIdOf = (name: string): string | undefined => {
  const m = /^(.+?)(?:\.1)?\.ndjson$/.exec(name);
  return m && isThreadId(m[1]!) ? m[1] : undefined;
};

/** Every file and folder of thread `id` outside the threads folder (traffic, ledger). */
export async function threadLeftovers(home: string, id: string): Promise<string[]> {
  const l = homeLayout(home);
  const out = [
    join(l.trafficDir, `${id}.ndjson`),
    join(l.trafficDir, `${id}.1.ndjson`),
    join(l.ledgerDir, `${id}.jsonl`),
  ];
  const there = await Promise.all(out.map(statOf));
  return out.filter((_, i) => there[i]);
}

export async function planGc(home: string, opts: GcOptions = {}): Promise<GcPlan> {
  const o = { ...GC_DEFAULTS, ...opts };
  const now = opts.now ?? Date.now();
  const on = (c: DataCategory) => !opts.only || opts.only.includes(c);
  const l = homeLayout(home);
  const items: GcItem[] = [];
  const add = async (category: DataCategory, path: string, reason: string, action: GcItem["action"] = "delete") =>
    items.push({ category, path, bytes: (await footprint(path)).bytes, action, reason });

  const live = await threadIdsIn(l.threadsDir);
  const trashed = await threadIdsIn(l.trashDir);
  // 1. the trash, past its age
  const purged = new Set<string>();
  for (const id of on("trash") ? trashed : []) {
    const st = await statOf(join(l.trashDir, `${id}.jsonl`));
    if (!st || now - st.mtimeMs < o.trashDays * DAY || live.has(id)) continue;
    purged.add(id);
    await add("trash", join(l.trashDir, `${id}.jsonl`), `deleted more than ${o.trashDays} days ago`);
    if (await statOf(assetsDir(l.trashDir, id))) await add("trash", assetsDir(l.trashDir, id), "its thread is purged");
  }
  const kept = (id: string) => live.has(id) || (trashed.has(id) && !purged.has(id));
  // 2. traffic: of gone threads, then past the age cap, then the oldest over the size cap
  const traffic: { path: string; id: string; bytes: number; mtime: number }[] = [];
  for (const name of on("traffic") ? await names(l.trafficDir) : []) {
    const id = trafficIdOf(name);
    const path = join(l.trafficDir, name);
    const st = id && (await statOf(path));
    if (!id || !st || !st.isFile()) continue;
    if (!kept(id)) await add("traffic", path, purged.has(id) ? "its thread is purged" : "its thread is gone");
    else if (o.trafficMaxAgeDays > 0 && now - st.mtimeMs > o.trafficMaxAgeDays * DAY)
      await add("traffic", path, `not written for ${o.trafficMaxAgeDays} days`);
    else traffic.push({ path, id, bytes: st.size, mtime: st.mtimeMs });
  }
  let total = traffic.reduce((n, t) => n + t.bytes, 0);
  if (o.trafficMaxBytes > 0 && total > o.trafficMaxBytes) {
    for (const t of traffic.sort((a, b) => a.mtime - b.mtime)) {
      if (total <= o.trafficMaxBytes) break;
      if (live.has(t.id) && liveWriter(join(l.threadsDir, `${t.id}.jsonl`))) continue;
      await add("traffic", t.path, `traffic over its cap of ${formatBytes(o.trafficMaxBytes)} (oldest first)`);
      total -= t.bytes;
    }
  }
  // 3. ledger files of gone threads, then blobs nothing refers to
  const ledgerDir = l.ledgerDir;
  const ledgers: string[] = [];
  for (const name of on("ledger") ? await names(ledgerDir) : []) {
    if (!name.endsWith(".jsonl") || !isThreadId(name.slice(0, -6))) continue;
    const id = name.slice(0, -6);
    if (kept(id)) ledgers.push(join(ledgerDir, name));
    else await add("ledger", join(ledgerDir, name), purged.has(id) ? "its thread is purged" : "its thread is gone");
  }
  for (const b of on("ledger") ? await unreferencedBlobs(l, ledgers, now - o.blobGraceMs) : [])
    await add("ledger", b, "a file version no thread's ledger refers to");
  // 4. steering inboxes of threads no process runs (a live writer's inbox is its own to empty)
  for (const id of on("steer") ? await names(l.steerDir) : []) {
    const dir = join(l.steerDir, id);
    if (!isThreadId(id) || !(await statOf(dir))?.isDirectory()) continue;
    if (live.has(id) && liveWriter(join(l.threadsDir, `${id}.jsonl`))) continue;
    const files = await names(dir);
    const times = await Promise.all(files.map(async (n) => (await statOf(join(dir, n)))?.mtimeMs ?? 0));
    if (times.some((t) => now - t < o.steerGraceMs)) continue;
    await add("steer", dir, live.has(id) ? "no process runs its thread" : "its thread is gone");
  }
  // 5. the audit log
  const audit = on("audit") ? await statOf(l.auditLog) : undefined;
  if (audit && o.auditMaxBytes > 0 && audit.size > o.auditMaxBytes) {
    const older = rotatedAuditPath(l.auditLog);
    const st = await statOf(older);
    items.push({
      category: "audit",
      path: l.auditLog,
      bytes: st?.size ?? 0,
      action: "rotate",
      reason: `over ${formatBytes(o.auditMaxBytes)}: rotated to ${older} (its older part is dropped)`,
    });
  }
  return { items, bytes: items.reduce((n, i) => n + i.bytes, 0) };
}

/** Blob files (and torn temporaries) older than `before` that neither `ledgers` nor the baseline caches name. */
async function unreferencedBlobs(l: HomeLayout, ledgers: string[], before: number): Promise<string[]> {
  const blobsDir = l.ledgerBlobsDir;
  const fans = (await names(blobsDir)).filter((n) => /^[0-9a-f]{2}$/.test(n));
  if (!fans.length) return [];
  const refs = new Set<string>();
  const manifests = (await names(l.ledgerManifestsDir)).map((n) => join(l.ledgerManifestsDir, n));
  for (const file of [...ledgers, ...manifests]) {
    const text = await readFile(file, "utf8").catch(() => "");
    for (const m of text.matchAll(BLOB_REF)) refs.add(m[1]!);
  }
  const out: string[] = [];
  for (const fan of fans) {
    for (const rest of await names(join(blobsDir, fan))) {
      const path = join(blobsDir, fan, rest);
      if (refs.has(fan + rest.slice(0, 38)) && rest.length === 38) continue;
      const st = await statOf(path);
      if (st && st.isFile() && st.mtimeMs < before) out.push(path);
    }
  }
  return out;
}

/** Carries out a plan; returns the bytes freed. Items that fail (held open on Windows, gone already) are skipped. */
export async function applyGc(plan: GcPlan): Promise<{ bytes: number; failed: { path: string; error: string }[] }> {
  let bytes = 0;
  const failed: { path: string; error: string }[] = [];
  for (const item of plan.items) {
    try {
      if (item.action === "rotate") await rename(item.path, rotatedAuditPath(item.path));
      else await rm(item.path, { recursive: true, force: true });
      bytes += item.bytes;
    } catch (err) {
      failed.push({ path: item.path, error: (err as Error).message });
    }
  }
  return { bytes, failed };
}
