/**
 * The review comments a user wrote on a thread's changes in the editor (issue #25 item 4), kept beside the thread
 * (`threads/<threadId>.assets/review.json`, whole-file writes, 0600) so they survive a reload, move to the trash
 * and back with it, and are purged with it. One writer: the editor window that reviews the thread. A comment
 * holds a path, lines, the code it was about, the text the user typed, and once sent, when.
 * A file that does not read back is set aside (`review.json.unreadable-<time>`), never overwritten. Every file call
 * is asynchronous, and a thread's changes are read and written one at a time (#35).
 */
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { isObj } from "../util/guards";
import { writeFileAtomicAsync } from "./atomic-write";
import { assetsDir } from "./paths";

export interface ReviewNote {
  id: string;
  /** Comments made in one place and answered there (a comment thread of the editor) share a group. */
  group: string;
  /** Absolute path of the file. */
  path: string;
  /** 1-based, inclusive. */
  start: number;
  end: number;
  body: string;
  /** The code of those lines when the comment was made. */
  quote: string;
  createdAt: string;
  /** Set once the comment went to the agent: it is not sent again. */
  sentAt?: string;
}

const VERSION = 1;

const isNote = (v: unknown): v is ReviewNote =>
  isObj(v) &&
  ["id", "group", "path", "body", "quote", "createdAt"].every((k) => typeof v[k] === "string") &&
  Number.isInteger(v.start) &&
  Number.isInteger(v.end) &&
  (v.start as number) >= 1 &&
  (v.end as number) >= (v.start as number) &&
  (v.sentAt === undefined || typeof v.sentAt === "string");

export class ReviewNotes {
  /** Each thread's last change, read and written in turn (#35: off the host's thread, never two at once). */
  readonly #changes = new Map<string, Promise<unknown>>();

  constructor(private readonly threadsDir: string) {}

  fileOf(threadId: string): string {
    return join(assetsDir(this.threadsDir, threadId), "review.json");
  }

  /**
   * The thread's comments (none when it has no file), once the changes asked before are written; throws on a file
   * that does not read back. No synchronous file call (the editor shows and counts a thread's comments with it).
   */
  async listAsync(threadId: string): Promise<ReviewNote[]> {
    await this.#changes.get(threadId)?.catch(() => undefined);
    return this.#read(threadId);
  }

  /**
   * Changes the thread's comments: read, `change`d, written whole (tmp, fsync, rename, 0600), one change at a time per
   * thread in call order, off the host's thread. A file that does not read back is set aside first (never
   * overwritten), `unreadable` is told why, and `change` starts from none. Resolves once written, with what was.
   */
  update(
    threadId: string,
    change: (all: ReviewNote[]) => ReviewNote[],
    unreadable?: (err: unknown) => void,
  ): Promise<ReviewNote[]> {
    const run = () => this.#update(threadId, change, unreadable);
    const next = (this.#changes.get(threadId) ?? Promise.resolve()).then(run, run);
    this.#changes.set(threadId, next);
    const forget = () => void (this.#changes.get(threadId) === next && this.#changes.delete(threadId));
    next.then(forget, forget);
    return next;
  }

  /** Replaces the thread's comments (a file that did not read back is kept aside first). */
  save(threadId: string, notes: readonly ReviewNote[]): Promise<ReviewNote[]> {
    return this.update(threadId, () => [...notes]);
  }

  async #update(
    threadId: string,
    change: (all: ReviewNote[]) => ReviewNote[],
    unreadable?: (err: unknown) => void,
  ): Promise<ReviewNote[]> {
    const file = this.fileOf(threadId);
    let all: ReviewNote[] = [];
    try {
      all = await this.#read(threadId);
    } catch (err) {
      await rename(file, `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, "-")}`);
      unreadable?.(err);
    }
    const notes = change(all);
    await writeFileAtomicAsync(file, `${JSON.stringify({ version: VERSION, notes }, null, 1)}\n`);
    return notes;
  }

  async #read(threadId: string): Promise<ReviewNote[]> {
    const file = this.fileOf(threadId);
    const text = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return undefined;
      throw err;
    });
    return text === undefined ? [] : parseNotes(file, text);
  }
}

function parseNotes(file: string, text: string): ReviewNote[] {
  const data = JSON.parse(text) as unknown;
  if (!isObj(data) || data.version !== VERSION || !Array.isArray(data.notes) || !data.notes.every(isNote))
    throw new Error(`${file} is not a review comments file of this version`);
  return data.notes;
}
