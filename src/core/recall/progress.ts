/**
 * Progress and cancellation of an import. The importer reports its read position every few hundred lines; the
 * tracker turns that into bytes done of the bytes to read (files unchanged since the last sync count nothing),
 * throttles the reports, and stops the import at once when cancelled: the batch in flight is rolled back, what
 * was committed stays, and the next sync resumes each file where its last committed batch ended.
 */
import { statSync } from "node:fs";
import type { SourceName } from "./model";

export interface ImportProgress {
  source: SourceName;
  files: number;
  filesDone: number;
  /** Bytes of transcript to read in this import, and read so far. */
  bytes: number;
  bytesDone: number;
  /** New messages indexed so far. */
  messages: number;
}

export interface ImportControl {
  /** Checked every few hundred lines: true stops the import. */
  cancelled?(): boolean;
  progress?(p: ImportProgress): void;
  /** Minimum milliseconds between two progress reports (default 100). */
  reportEveryMs?: number;
}

export class ImportCancelled extends Error {
  constructor() {
    super("import cancelled");
  }
}

/** What the importer tells the tracker while it reads one file. */
export interface ImportWatch {
  begin(path: string, offset: number): void;
  /** The read position in the current file and the messages written so far in it; throws ImportCancelled. */
  at(offset: number, messages: number): void;
  /** Where the file's read ended (its last lines after the last `at`), without the cancel check. */
  reached(offset: number, messages: number): void;
  end(): void;
}

export class ImportTracker implements ImportWatch {
  readonly #p: ImportProgress;
  #fileStart = 0;
  #fileMessages = 0;
  #base = { bytes: 0, messages: 0 };
  #lastReport = 0;

  constructor(
    source: SourceName,
    paths: string[],
    readonly ctl: ImportControl,
    /** Where each file's last import stopped (its bytes before that are not read again). */
    offsetOf: (path: string) => number,
  ) {
    let bytes = 0;
    if (ctl.progress)
      for (const p of paths) {
        try {
          const size = statSync(p).size;
          const from = offsetOf(p);
          bytes += size >= from ? size - from : size;
        } catch {
          // missing: nothing to read
        }
      }
    this.#p = { source, files: paths.length, filesDone: 0, bytes, bytesDone: 0, messages: 0 };
  }

  begin(_path: string, offset: number): void {
    this.#fileStart = offset;
    this.#fileMessages = 0;
  }

  at(offset: number, messages: number): void {
    if (this.ctl.cancelled?.()) throw new ImportCancelled();
    this.reached(offset, messages);
    this.#report(false);
  }

  reached(offset: number, messages: number): void {
    this.#p.bytesDone = this.#base.bytes + Math.max(0, offset - this.#fileStart);
    this.#fileMessages = messages;
    this.#p.messages = this.#base.messages + messages;
  }

  end(): void {
    this.#base.bytes = this.#p.bytesDone;
    this.#base.messages += this.#fileMessages;
    this.#fileMessages = 0;
    this.#p.messages = this.#base.messages;
    this.#p.filesDone++;
    this.#report(this.#p.filesDone === this.#p.files);
  }

  /** The progress so far (what the last report said, unthrottled). */
  snapshot(): ImportProgress {
    return { ...this.#p, bytesDone: Math.min(this.#p.bytesDone, this.#p.bytes) };
  }

  #report(force: boolean): void {
    if (!this.ctl.progress) return;
    const now = Date.now();
    if (!force && now - this.#lastReport < (this.ctl.reportEveryMs ?? 100)) return;
    this.#lastReport = now;
    this.ctl.progress(this.snapshot());
  }
}
