/**
 * The thread store: one append-only JSONL file per thread under `threadsDir/<threadId>.jsonl`.
 * `append` writes raw history and never infers metadata; `patchMetadata` is the only metadata write
 * (a `meta_patch` record). Deleting moves the file to the trash folder, where `restore` finds it again.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import { Emitter } from "../lifecycle";
import { nullLogger, type Logger } from "../log";
import { writeFileAtomic } from "./atomic-write";
import { changeJournalPath, journalChange } from "./change-journal";
import { markInterrupted } from "./interrupted-threads";
import { readRecords, readRecordsAsync, type ReadResult, type ReadWarning } from "./jsonl-reader";
import { JsonlWriter } from "./jsonl-writer";
import { PendingCloses } from "./pending-closes";
import { ThreadHandle, userTitlePatch, type Durability } from "./thread-handle";
import { foldMetadata, type ThreadMetadata } from "../model/metadata";
import { homeLayout, type HomeLayout } from "./paths";
import type { MetadataPatch, RecordInput, ThreadRecord, ThreadStartRecord } from "../model/records";
import { isThreadId } from "../model/thread-id";
import { newThreadId } from "./thread-id";
import { pathExists } from "../util/path-exists";
import { runAsync, runSync } from "../util/steps";
import {
  deleteSteps,
  execTrashAsync,
  execTrashSync,
  restoreSteps,
  threadMove,
  threadNotFound,
  type ThreadMove,
} from "./thread-trash";

export type CreateThreadInput = Omit<ThreadStartRecord, "v" | "ts" | "kind" | "threadId"> & { threadId?: string };

export interface ThreadRead {
  path: string;
  metadata: ThreadMetadata;
  records: ThreadRecord[];
  warnings: ReadWarning[];
  size: number;
  /** Where the records read end in the file (a torn tail left out): an incremental read goes on from there. */
  endOffset: number;
}

export { ThreadHandle, type Durability } from "./thread-handle";

export class ThreadStore {
  readonly layout: HomeLayout;
  readonly #logger: Logger;
  readonly #durability: Durability;
  readonly #open = new Map<string, ThreadHandle>();
  /** A writer opened off the thread: durability "soon" (the extension host's) writes its records on the pool too. */
  readonly #async = () => ({ logger: this.#logger, pool: this.#durability === "soon" });
  /** Handles closed off the caller's thread (durability "soon") whose close is not complete yet. */
  readonly #closing = new PendingCloses();
  readonly #changed = new Emitter<string>();
  /**
   * Appends to the change journal (change-journal.ts): a thread opened for writing or changed. `wait`: as the call
   * that changed it did (a synchronous open, delete, restore, import), else without waiting on the disk (an async
   * open, and the close of a thread opened so: the extension host's).
   */
  readonly #journal: (threadId: string, wait: boolean) => void;
  /**
   * A thread's file changed through this store, seen from outside the writer: a handle of it closed (what it
   * wrote is complete), it was deleted, restored or imported. Appends through an open handle do not fire.
   */
  readonly onDidChange = this.#changed.event;

  constructor(
    readonly home: string,
    opts: { logger?: Logger; durability?: Durability } = {},
  ) {
    this.layout = homeLayout(home);
    this.#logger = opts.logger ?? nullLogger;
    this.#durability = opts.durability ?? "now";
    const journal = changeJournalPath(this.layout.threadIndexDb);
    this.#journal = (id, wait) => journalChange(journal, id, wait ? "now" : "soon", this.#logger);
  }

  get threadsDir(): string {
    return this.layout.threadsDir;
  }

  pathFor(threadId: string): string {
    if (!isThreadId(threadId)) throw new AcpThreadsError("usage", `'${threadId}' is not a thread id`);
    return join(this.layout.threadsDir, `${threadId}.jsonl`);
  }

  trashPathFor(threadId: string): string {
    if (!isThreadId(threadId)) throw new AcpThreadsError("usage", `'${threadId}' is not a thread id`);
    return join(this.layout.trashDir, `${threadId}.jsonl`);
  }

  exists(threadId: string): boolean {
    return isThreadId(threadId) && existsSync(this.pathFor(threadId));
  }

  /** `exists` with the stat on libuv's thread pool (the extension host's thread never waits on the disk). */
  async existsAsync(threadId: string): Promise<boolean> {
    return isThreadId(threadId) && (await pathExists(this.pathFor(threadId)));
  }

  /** Creates a thread, writes its `thread_start` record durably (at once or soon: `durability`), returns it open. */
  create(input: CreateThreadInput, now: Date = new Date()): ThreadHandle {
    const threadId = input.threadId ?? newThreadId(now.getTime());
    const path = this.pathFor(threadId);
    if (existsSync(path)) throw alreadyExists(threadId);
    return this.#started(threadId, input, now, JsonlWriter.open(path, { logger: this.#logger }), true);
  }

  /** `create` without a synchronous file call for the lock and the open (a session starting on the extension host). */
  async createAsync(input: CreateThreadInput, now: Date = new Date()): Promise<ThreadHandle> {
    const threadId = input.threadId ?? newThreadId(now.getTime());
    const path = this.pathFor(threadId);
    if (await pathExists(path)) throw alreadyExists(threadId);
    return this.#started(threadId, input, now, await JsonlWriter.openAsync(path, this.#async()), false);
  }

  #started(threadId: string, input: CreateThreadInput, now: Date, writer: JsonlWriter, wait: boolean): ThreadHandle {
    const handle = this.#wrap(threadId, writer, wait);
    const { threadId: _ignored, ...rest } = input;
    handle.writer.append({ v: 1, ts: now.toISOString(), kind: "thread_start", threadId, ...rest });
    handle.checkpoint();
    return handle;
  }

  /** Opens an existing thread for appending (resume); repairs a torn tail first. */
  open(threadId: string): ThreadHandle {
    this.#notOpenHere(threadId);
    this.#closing.finish(threadId);
    const path = this.#requirePath(threadId);
    return this.#wrap(threadId, JsonlWriter.open(path, { logger: this.#logger, create: false }), true);
  }

  /** `open` without a synchronous file call for the lock, the torn-tail check and the open (a resume on the host). */
  async openAsync(threadId: string): Promise<ThreadHandle> {
    this.#notOpenHere(threadId);
    const path = this.pathFor(threadId);
    // this process closed it a moment ago (resume after close, Restore): its fd and lock go first
    await this.whenClosed(threadId);
    this.#notOpenHere(threadId);
    const writer = await JsonlWriter.openAsync(path, { ...this.#async(), create: false }).catch((err: unknown) => {
      throw (err as NodeJS.ErrnoException).code === "ENOENT" ? threadNotFound(threadId) : err;
    });
    return this.#wrap(threadId, writer, false);
  }

  /**
   * Resolves once a close of `threadId` under way in this process (durability "soon") is complete: the file durable,
   * closed and unlocked. At once when there is none.
   */
  whenClosed(threadId: string): Promise<void> {
    return this.#closing.whenClosed(threadId);
  }

  /** Resolves once every close under way in this process is complete (`whenClosed` of each). */
  whenAllClosed(): Promise<void> {
    return this.#closing.whenAllClosed();
  }

  /** The handle this process holds for `threadId`, if any. */
  handleOf(threadId: string): ThreadHandle | undefined {
    return this.#open.get(threadId);
  }

  /** Appends raw history (cold path: uses the open handle when this process has one). */
  append(threadId: string, inputs: RecordInput[]): ThreadRecord[] {
    return this.#withHandle(threadId, (h) => {
      const recs = h.appendMany(inputs);
      h.sync();
      return recs;
    });
  }

  patchMetadata(threadId: string, patch: MetadataPatch): ThreadRecord {
    return this.#withHandle(threadId, (h) => h.patch(patch));
  }

  /**
   * `patchMetadata` with the lock, the open, the record's write and the close off the caller's thread (the window's
   * Archive and Rename); resolves once the thread is closed again. A thread held here is patched through its handle.
   */
  async patchMetadataAsync(threadId: string, patch: MetadataPatch): Promise<ThreadRecord> {
    const held = this.#open.get(threadId);
    if (held && !held.closed) return held.patchAsync(patch);
    const h = await this.openAsync(threadId);
    try {
      return await h.patchAsync(patch);
    } finally {
      h.close();
      await this.whenClosed(threadId);
    }
  }

  /** The user's title (userTitlePatch: blank clears it); `renameAsync` off the caller's thread (the window's Rename). */
  rename(threadId: string, title: string | null): void {
    this.patchMetadata(threadId, userTitlePatch(title));
  }
  async renameAsync(threadId: string, title: string | null): Promise<void> {
    await this.patchMetadataAsync(threadId, userTitlePatch(title));
  }

  read(threadId: string): ThreadRead {
    return this.readPath(this.#requirePath(threadId));
  }

  /** `readAsync` of a thread that must exist. */
  async readExisting(threadId: string): Promise<ThreadRead> {
    return (await this.readAsync(threadId)) ?? Promise.reject(threadNotFound(threadId));
  }

  /**
   * `read` without a synchronous file call (the extension host); undefined when the thread does not exist. The
   * records are still parsed on the caller's thread.
   */
  async readAsync(threadId: string): Promise<ThreadRead | undefined> {
    if (!isThreadId(threadId)) return undefined;
    const path = this.pathFor(threadId);
    const res = await readRecordsAsync(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return undefined;
      throw err;
    });
    return res && this.#fold(path, res);
  }

  readPath(path: string): ThreadRead {
    return this.#fold(path, readRecords(path));
  }

  #fold(path: string, res: ReadResult): ThreadRead {
    for (const w of res.warnings) this.#logger.warn(`${path} @${w.offset}: ${w.message}`);
    const metadata = foldMetadata(res.records);
    if (!metadata) throw new AcpThreadsError("corrupt", `${path} has no thread_start record; it is not a thread file`);
    return { path, metadata, records: res.records, warnings: res.warnings, size: res.size, endOffset: res.endOffset };
  }

  readMetadata(threadId: string): ThreadMetadata {
    return this.read(threadId).metadata;
  }

  /** Thread ids on disk, oldest first (ids are time-ordered). */
  ids(dir: string = this.layout.threadsDir): string[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl") && isThreadId(f.slice(0, -6)))
      .map((f) => f.slice(0, -6))
      .sort();
  }

  /** Every readable thread's metadata, most recent activity first. Unreadable files are skipped with a warning. */
  list(): ThreadMetadata[] {
    const out: ThreadMetadata[] = [];
    for (const id of this.ids()) {
      try {
        out.push(this.read(id).metadata);
      } catch (err) {
        this.#logger.warn(`skipping thread ${id}: ${(err as Error).message}`);
      }
    }
    return out.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
  }

  /** Resolves a full id or a unique prefix (like git); searches the trash too when asked. */
  resolveId(prefix: string, opts: { trash?: boolean } = {}): string {
    const ids = this.ids(opts.trash ? this.layout.trashDir : this.layout.threadsDir);
    if (ids.includes(prefix)) return prefix;
    const matches = prefix.length >= 4 ? ids.filter((id) => id.startsWith(prefix)) : [];
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1)
      throw new AcpThreadsError(
        "usage",
        `thread id '${prefix}' is ambiguous (${matches.length} threads match); give more characters`,
      );
    throw new AcpThreadsError("not_found", `no thread '${prefix}'${opts.trash ? " in the trash" : ""}`);
  }

  /** Moves a thread to the trash folder (restorable). Refused while a writer is live. */
  delete(threadId: string): string {
    const dest = runSync(deleteSteps(this.#move(threadId, "trash")), execTrashSync(this.#closing));
    this.#moved(threadId, true);
    return dest;
  }

  /** `delete` without a synchronous file call (the window's Delete): a close of it under way here ends first. */
  async deleteAsync(threadId: string): Promise<string> {
    const dest = await runAsync(deleteSteps(this.#move(threadId, "trash")), execTrashAsync(this.#closing));
    this.#moved(threadId, this.#durability === "now");
    return dest;
  }

  restore(threadId: string): string {
    const dest = runSync(restoreSteps(this.#move(threadId, "threads")), execTrashSync(this.#closing));
    this.#moved(threadId, true);
    return dest;
  }

  /** Where `threadId` (checked: a thread id) moves to the trash or back from it. */
  #move(threadId: string, to: "trash" | "threads"): ThreadMove {
    return threadMove(this.pathFor(threadId) && threadId, this.layout, to === "trash");
  }

  #moved(threadId: string, wait: boolean): void {
    this.#journal(threadId, wait);
    this.#changed.fire(threadId);
  }

  /** Copies the thread's complete lines to `outPath` (atomic, 0600). */
  exportJsonl(threadId: string, outPath: string): { bytes: number } {
    const path = this.#requirePath(threadId);
    const buf = readFileSync(path);
    const end = buf.lastIndexOf(0x0a) + 1;
    writeFileAtomic(outPath, buf.subarray(0, end));
    return { bytes: end };
  }

  /** Adds a thread file exported by `exportJsonl` (validated; never overwrites an existing thread). */
  importJsonl(srcPath: string): string {
    const { metadata } = this.readPath(srcPath);
    const dest = this.pathFor(metadata.threadId);
    if (existsSync(dest))
      throw new AcpThreadsError("usage", `thread ${metadata.threadId} already exists; not overwriting it`);
    const buf = readFileSync(srcPath);
    writeFileAtomic(dest, buf.subarray(0, buf.lastIndexOf(0x0a) + 1));
    this.#journal(metadata.threadId, true);
    this.#changed.fire(metadata.threadId);
    return metadata.threadId;
  }

  /**
   * Crash safety: threads left `live` by a writer that is gone (stale lock) get a `status: interrupted`
   * patch. Returns the ids marked.
   */
  markInterrupted(): string[] {
    return markInterrupted(this, (id) => this.#open.has(id) || this.#closing.has(id), this.#logger);
  }

  /**
   * Closes every handle this process holds (CLI exit): every thread durable and unlocked on return, those closing
   * off the thread (durability "soon") too.
   */
  closeAll(): void {
    for (const h of [...this.#open.values()]) h.close();
    this.#closing.finishAll();
  }

  /** `closeAll` without waiting on the caller's thread (the extension host's deactivation awaits it). */
  async closeAllAsync(): Promise<void> {
    for (const h of [...this.#open.values()]) h.close();
    await this.whenAllClosed();
  }

  /** `wait`: opened by a synchronous call (the CLI); an async open (the extension host) never waits on the journal. */
  #wrap(threadId: string, writer: JsonlWriter, wait: boolean): ThreadHandle {
    const closed = () => {
      this.#journal(threadId, wait && this.#durability === "now");
      this.#changed.fire(threadId);
    };
    const handle = new ThreadHandle(
      threadId,
      writer,
      (pending) => {
        if (this.#open.get(threadId) === handle) this.#open.delete(threadId);
        if (!pending) return closed();
        // the file is complete and unlocked only once the close off the thread is: told then
        this.#closing.track(threadId, writer, pending, closed);
      },
      this.#durability,
    );
    this.#open.set(threadId, handle);
    this.#journal(threadId, wait && this.#durability === "now");
    return handle;
  }

  #withHandle<T>(threadId: string, fn: (h: ThreadHandle) => T): T {
    const held = this.#open.get(threadId);
    if (held && !held.closed) return fn(held);
    const h = this.open(threadId);
    try {
      return fn(h);
    } finally {
      h.close();
    }
  }

  #requirePath(threadId: string): string {
    const path = this.pathFor(threadId);
    if (!existsSync(path)) throw threadNotFound(threadId);
    return path;
  }

  #notOpenHere(threadId: string): void {
    const existing = this.#open.get(threadId);
    if (existing && !existing.closed)
      throw new AcpThreadsError("usage", `thread ${threadId} is already open for writing in this process`);
  }
}

const alreadyExists = (threadId: string) => new AcpThreadsError("usage", `thread ${threadId} already exists`);
