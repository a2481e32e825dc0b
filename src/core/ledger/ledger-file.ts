/**
 * Reading and appending a thread's ledger file. Appends take the file's writer lock only for the append (open,
 * write the lines in one write, fsync, close), so the extension and the CLI can both add to a thread's ledger,
 * one at a time; a torn last line left by a crash is cut before new lines go on. The append makes no synchronous
 * file call (store/locked-append.ts): the extension host's thread never waits for the lock or the fsync.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Logger } from "../log";
import { readLinesFromBuffer, type ReadWarning } from "../store/jsonl-reader";
import { appendLocked } from "../store/locked-append";
import { parseLedgerLine, stampLedger, type LedgerInput, type LedgerRecord } from "./records";

const LOCK_WAIT_MS = 3000;

/** Appends the records (stamped now, in call order with this process's other appends); resolves once durable. */
export async function appendLedger(
  path: string,
  inputs: readonly LedgerInput[],
  logger?: Logger,
): Promise<LedgerRecord[]> {
  const records = inputs.map((i) => stampLedger(i));
  if (!records.length) return records;
  await appendLocked(path, records.map((r) => JSON.stringify(r) + "\n").join(""), { logger, waitMs: LOCK_WAIT_MS });
  return records;
}

export interface LedgerRead {
  records: LedgerRecord[];
  warnings: ReadWarning[];
}

/** Every valid record; bad or torn lines become warnings, never errors. A missing file is an empty ledger. */
export function readLedger(path: string): LedgerRead {
  if (!existsSync(path)) return { records: [], warnings: [] };
  const { records, warnings } = readLinesFromBuffer(readFileSync(path), parseLedgerLine);
  return { records, warnings };
}

/** `readLedger` without a synchronous file call (a turn's end on the extension host). */
export async function readLedgerAsync(path: string): Promise<LedgerRead> {
  const buf = await readFile(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  if (!buf) return { records: [], warnings: [] };
  const { records, warnings } = readLinesFromBuffer(buf, parseLedgerLine);
  return { records, warnings };
}
