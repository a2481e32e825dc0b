/**
 * Who goes first on the index. node-sqlite3-wasm locks the whole file with one mkdir lock, and an importer that
 * re-takes it microseconds after each commit starves every reader polling for it ("database is locked" after the
 * busy timeout). So a reader leaves a marker file next to the index while it waits and reads (opening included),
 * and the importer, after each commit, lets the lock go until the markers are gone (at most READER_TURN_MS per
 * commit). Likewise a bulk import announces itself while it waits and runs, and a compaction (upkeep) gives way to
 * it. Markers of dead processes are removed by whoever finds them; a thread never waits for its own markers.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pidAlive } from "../store/file-lock";

const READER_TURN_MS = 2000;
let counter = 0;
/** Tells this thread's markers from another thread's of the same process (node:worker_threads costs a load). */
const threadTag = Math.random().toString(36).slice(2, 8);

type Kind = "readers" | "importers";
const dirOf = (dbPath: string, kind: Kind) => `${dbPath}.${kind}`;

/** Leaves a marker of `kind` until the returned function is called. */
function mark(dbPath: string, kind: Kind): () => void {
  const dir = dirOf(dbPath, kind);
  const file = join(dir, `${process.pid}-${threadTag}-${counter++}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, "", { mode: 0o600 });
  } catch {
    return () => undefined; // a read-only location: go without priority
  }
  return () => rmSync(file, { force: true });
}

/** True while another thread or a live process has a marker of `kind` out. */
function marked(dbPath: string, kind: Kind): boolean {
  let names: string[];
  try {
    names = readdirSync(dirOf(dbPath, kind));
  } catch {
    return false;
  }
  const mine = `${process.pid}-${threadTag}-`;
  for (const name of names) {
    // this thread's own marker never waits for this thread (a rebuild inside a search, guard())
    if (name.startsWith(mine)) continue;
    const pid = Number(name.split("-")[0]);
    if (pid === process.pid || pidAlive(pid)) return true;
    rmSync(join(dirOf(dbPath, kind), name), { force: true });
  }
  return false;
}

/** Marks a read (or an open) in progress until the returned function is called. */
export const wantRead = (dbPath: string): (() => void) => mark(dbPath, "readers");

/** True while some live reader waits for or holds the index. */
export const readersWaiting = (dbPath: string): boolean => marked(dbPath, "readers");

/** Marks a bulk import waiting or running until the returned function is called: compactions give way. */
export const announceImport = (dbPath: string): (() => void) => mark(dbPath, "importers");

/** True while a bulk import (another thread or process) waits or runs. */
export const importAnnounced = (dbPath: string): boolean => marked(dbPath, "importers");

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Called by the importer between two transactions: waits while readers want the index. */
export function giveReadersTheirTurn(dbPath: string): void {
  const until = Date.now() + READER_TURN_MS;
  while (Date.now() < until && readersWaiting(dbPath)) Atomics.wait(sleeper, 0, 0, 2);
}
