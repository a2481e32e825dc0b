/**
 * Reading and appending a thread's ledger file. Appends take the file's writer lock only for the append (open,
 * write the lines in one write, fsync, close), so the extension and the CLI can both add to a thread's ledger,
 * one at a time; a torn last line left by a crash is cut before new lines go on (see JsonlWriter).
 */
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError } from "../errors";
import type { Logger } from "../log";
import { readLinesFromBuffer, type ReadWarning } from "../store/jsonl-reader";
import { JsonlWriter } from "../store/jsonl-writer";
import { parseLedgerLine, stampLedger, type LedgerInput, type LedgerRecord } from "./records";

const LOCK_WAIT_MS = 3000;

export async function appendLedger(
  path: string,
  inputs: readonly LedgerInput[],
  logger?: Logger,
): Promise<LedgerRecord[]> {
  const records = inputs.map((i) => stampLedger(i));
  if (!records.length) return records;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let writer: JsonlWriter;
    try {
      writer = JsonlWriter.open(path, { logger });
    } catch (err) {
      // another process is appending right now: its append is short, wait for it
      if (err instanceof AcpThreadsError && err.code === "locked" && Date.now() < deadline) {
        await sleep(20);
        continue;
      }
      throw err;
    }
    try {
      writer.appendValues(records);
    } finally {
      writer.close();
    }
    return records;
  }
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
