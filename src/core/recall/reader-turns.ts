/**
 * Readers before the importer. node-sqlite3-wasm locks the whole file with one mkdir lock, and an importer that
 * re-takes it microseconds after each commit starves every reader polling for it ("database is locked" after the
 * busy timeout). So a reader leaves a marker file next to the index while it waits and reads, and the importer,
 * after each commit, lets the lock go until the markers are gone (at most READER_TURN_MS per commit). Markers of
 * dead processes are removed by whoever finds them.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pidAlive } from "../store/file-lock";

const READER_TURN_MS = 2000;
let counter = 0;
/** Tells this thread's markers from another thread's of the same process (node:worker_threads costs a load). */
const threadTag = Math.random().toString(36).slice(2, 8);

const dirOf = (dbPath: string) => `${dbPath}.readers`;

/** Marks a read in progress until the returned function is called. */
export function wantRead(dbPath: string): () => void {
  const dir = dirOf(dbPath);
  const file = join(dir, `${process.pid}-${threadTag}-${counter++}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, "", { mode: 0o600 });
  } catch {
    return () => undefined; // a read-only location: read without priority
  }
  return () => rmSync(file, { force: true });
}

/** True while some live reader waits for or holds the index. */
export function readersWaiting(dbPath: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dirOf(dbPath));
  } catch {
    return false;
  }
  for (const name of names) {
    const pid = Number(name.split("-")[0]);
    if (pid === process.pid || pidAlive(pid)) return true;
    rmSync(join(dirOf(dbPath), name), { force: true });
  }
  return false;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Called by the importer between two transactions: waits while readers want the index. */
export function giveReadersTheirTurn(dbPath: string): void {
  const until = Date.now() + READER_TURN_MS;
  while (Date.now() < until && readersWaiting(dbPath)) Atomics.wait(sleeper, 0, 0, 2);
}
