/**
 * The review comments a user wrote on a thread's changes in the editor (issue #25 item 4), kept beside the thread
 * (`threads/<threadId>.assets/review.json`, whole-file writes, 0600) so they survive a reload, move to the trash
 * and back with it, and are purged with it. One writer: the editor window that reviews the thread. A comment
 * holds a path, lines, the code it was about, the text the user typed, and once sent, when.
 * A file that does not read back is set aside (`review.json.unreadable-<time>`), never overwritten.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isObj } from "../util/guards";
import { writeFileAtomic } from "./atomic-write";
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
  constructor(private readonly threadsDir: string) {}

  fileOf(threadId: string): string {
    return join(assetsDir(this.threadsDir, threadId), "review.json");
  }

  /** The thread's comments (none when it has no file); throws on a file that does not read back. */
  list(threadId: string): ReviewNote[] {
    const file = this.fileOf(threadId);
    return existsSync(file) ? parseNotes(file, readFileSync(file, "utf8")) : [];
  }

  /** `list` without a synchronous file call (the editor shows and counts a thread's comments with it). */
  async listAsync(threadId: string): Promise<ReviewNote[]> {
    const file = this.fileOf(threadId);
    const text = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return undefined;
      throw err;
    });
    return text === undefined ? [] : parseNotes(file, text);
  }

  /** Replaces the thread's comments (a file that did not read back is kept aside first). */
  save(threadId: string, notes: readonly ReviewNote[]): void {
    const file = this.fileOf(threadId);
    try {
      this.list(threadId);
    } catch {
      renameSync(file, `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, "-")}`);
    }
    writeFileAtomic(file, `${JSON.stringify({ version: VERSION, notes }, null, 1)}\n`);
  }
}

function parseNotes(file: string, text: string): ReviewNote[] {
  const data = JSON.parse(text) as unknown;
  if (!isObj(data) || data.version !== VERSION || !Array.isArray(data.notes) || !data.notes.every(isNote))
    throw new Error(`${file} is not a review comments file of this version`);
  return data.notes;
}
