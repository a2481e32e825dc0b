/**
 * The Best of N records' file (`best-of.json` in the data home, best-of-record.ts says what a record holds): one
 * JSON document, each change re-read, edited and written whole under the file's lock (tmp → fsync → rename, mode
 * 0600), so two windows never undo each other's changes, and pruned to a bounded count. A file that cannot be read
 * (corrupt, or from a newer version) is an error: reads say so, and no change writes over it. Every call is
 * asynchronous (the extension host's thread never waits on it).
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { AcpThreadsError } from "../errors";
import { atomicWriteFile } from "../acp/disk-workspace-files";
import { waitForLockAsync } from "../platform/file-lock";
import { bestOfFileText, parseBestOfFile, pruneRecords, type BestOfRecord } from "./best-of-record";

const LOCK_WAIT_MS = 5_000;

export class BestOfRecords {
  constructor(readonly file: string) {}

  /** Every record, oldest first (none when the file is not there; throws when it cannot be read). */
  async list(): Promise<BestOfRecord[]> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    return parseBestOfFile(text, this.file);
  }

  async get(id: string): Promise<BestOfRecord | undefined> {
    return (await this.list()).find((r) => r.id === id);
  }

  /** Adds a record (older finished ones may be pruned). */
  async add(record: BestOfRecord): Promise<void> {
    await this.#change((rs) => [...rs, record]);
  }

  /**
   * Edits one record in place under the lock (`edit` returns false: nothing to write); false when the record is
   * not there (pruned, or another window's file was moved away).
   */
  async update(id: string, edit: (r: BestOfRecord) => boolean | void): Promise<boolean> {
    let found = false;
    await this.#change((rs) => {
      const r = rs.find((x) => x.id === id);
      if (!r) return undefined;
      found = edit(r) !== false;
      return found ? rs : undefined;
    });
    return found;
  }

  /** Re-reads the file under its lock, applies `edit` (undefined: no change), prunes and writes it back. */
  async #change(edit: (records: BestOfRecord[]) => BestOfRecord[] | undefined): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const release = await waitForLockAsync(this.file, {
      label: "Best of N records",
      pollMs: 20,
      signal: AbortSignal.timeout(LOCK_WAIT_MS),
    }).catch((err: unknown) => {
      throw new AcpThreadsError("locked", `could not lock ${this.file} to record a Best of N: ${String(err)}`);
    });
    try {
      const after = edit(await this.list());
      if (after) await atomicWriteFile(this.file, bestOfFileText(pruneRecords(after)), 0o600);
    } finally {
      await release();
    }
  }
}
