/**
 * What one turn changed, from three sources: writes served through our fs handler (recorded as they happen,
 * with the text the agent replaced), files that changed on disk while the turn ran (the workspace tracker's
 * deltas, whose earlier versions the baseline kept), and the `diff` contents agents attach to edit tool calls
 * (the previous text when the tracker could not know it, and which tool call wrote which path).
 */
import { readFile } from "node:fs/promises";
import { join, sep } from "node:path";
import { errorMessage } from "../errors";
import type { ToolCallState } from "../model/events";
import { isInside, isSymlink, realInside } from "../util/real-inside";
import type { FileWrite } from "../acp/runtime";
import { blobId, keepVersion, type BlobStore } from "./blob-store";
import type { FileState } from "./content";
import type { OpView } from "./ledger-view";
import type { ChangeRecord, LedgerInput } from "./records";
import type { FileDelta, WorkspaceTracker } from "./tracker";

export interface TurnInfo {
  threadId: string;
  /** The thread's turn number (1-based). */
  turn: number;
  cwd: string;
  agent: { id: string; name: string };
}

/** What the capture needs from the ledger service. */
export interface CaptureHost {
  readonly blobs: BlobStore;
  append(threadId: string, inputs: LedgerInput[]): Promise<void>;
  /** Syncs the tracker (giving every open capture its share of the deltas), then closes this capture. */
  finish(capture: TurnCapture): Promise<void>;
  /** Keeps a turn's ending in view until it is written (`EditLedger.flush`). */
  track(ending: Promise<unknown>): void;
  /** Called once the op record is written; returns the recorded operation as the ledger now reads. */
  finished(capture: TurnCapture): Promise<OpView>;
  warn(message: string): void;
  /** The user's view of a write that replaced text the agent had not read (conflict radar). */
  staleWrite(capture: TurnCapture, write: FileWrite): void;
}

interface ToolDiff {
  oldText: string | null;
  newText: string;
  toolCallId: string;
}

type Input<T> = Omit<T, "v" | "ts">;

export class TurnCapture {
  readonly op: string;
  readonly startedAt = new Date().toISOString();
  readonly #host: CaptureHost;
  readonly #tracker: WorkspaceTracker | undefined;
  /** Root-relative deltas given to this turn (merged: first before, last after); `shared` = other turns ran too. */
  readonly #deltas = new Map<string, FileDelta & { shared: boolean }>();
  readonly #writes = new Map<string, { after: string; toolCallId?: string }>();
  readonly #diffs = new Map<string, ToolDiff>();
  readonly #claims = new Map<string, string>();
  readonly #notes: string[] = [];
  #pending: Promise<void> = Promise.resolve();
  #ended: Promise<OpView> | undefined;

  constructor(
    host: CaptureHost,
    readonly info: TurnInfo,
    /** The workspace root as the tracker sees it (symlinks resolved). */
    readonly root: string,
    tracker: WorkspaceTracker | undefined,
  ) {
    this.#host = host;
    this.#tracker = tracker;
    this.op = `turn-${info.turn}`;
  }

  /** Whether this turn says it touched `abs` (an fs write, an edit tool call's diff or location). */
  claims(abs: string): boolean {
    return this.#writes.has(abs) || this.#claims.has(abs);
  }

  /** A write served through our fs handler: its record is appended now (a crash keeps it). */
  noteWrite(write: FileWrite): void {
    const toolCallId = this.#claims.get(write.path);
    this.#writes.set(write.path, { after: write.after, ...(toolCallId ? { toolCallId } : {}) });
    if (write.lastRead !== undefined && write.before !== null && write.lastRead !== write.before)
      this.#host.staleWrite(this, write);
    this.#chain(async () => {
      const before = write.before === null ? null : await this.#storeText(write.before);
      const after = await this.#storeText(write.after);
      await this.#append([this.#change(write.path, before, after, "fs_write", toolCallId)]);
    });
  }

  /** Edit tool calls: which path each wrote, and the previous text agents attach as a `diff`. */
  noteToolCall(tc: ToolCallState): void {
    for (const loc of tc.locations ?? []) if (loc.path) this.#claims.set(this.#canonical(loc.path), tc.toolCallId);
    for (const c of tc.content ?? []) {
      if (c.type !== "diff" || !c.path) continue;
      const path = this.#canonical(c.path);
      this.#claims.set(path, tc.toolCallId);
      const seen = this.#diffs.get(path);
      this.#diffs.set(path, {
        oldText: seen ? seen.oldText : (c.oldText ?? null),
        newText: c.newText,
        toolCallId: tc.toolCallId,
      });
    }
  }

  /** Deltas seen by a tracker sync while this turn was open. */
  addDeltas(deltas: readonly FileDelta[], shared: boolean): void {
    for (const d of deltas) {
      const seen = this.#deltas.get(d.rel);
      if (seen) {
        seen.after = d.after;
        seen.shared ||= shared;
      } else this.#deltas.set(d.rel, { ...d, shared });
    }
  }

  /** Paths that changed on disk while other turns in the same folder were running too. */
  get sharedPaths(): string[] {
    return [...this.#deltas.values()].filter((d) => d.shared).map((d) => join(this.root, d.rel));
  }

  /** Ends the turn: final sync, then the disk changes and the op record are appended. Idempotent. */
  end(status: string): Promise<OpView> {
    if (!this.#ended) {
      this.#ended = this.#end(status);
      this.#host.track(this.#ended);
    }
    return this.#ended;
  }

  async #end(status: string): Promise<OpView> {
    await this.#host.finish(this);
    await this.#pending;
    const records: Input<ChangeRecord>[] = [];
    const fromDisk = [...this.#deltas.values()];
    const befores = this.#tracker ? await this.#tracker.keep(fromDisk.map((d) => d.before)) : [];
    for (const [i, d] of fromDisk.entries()) {
      const path = join(this.root, d.rel);
      const written = this.#writes.get(path);
      if (written && d.after?.id && d.after.id === blobId(Buffer.from(written.after))) continue; // recorded already
      let before = befores[i] ?? d.before;
      const diff = this.#diffs.get(path);
      if (before && !before.stored && !before.binary && diff?.oldText != null) {
        const fromDiff = await this.#storeText(diff.oldText);
        if (!before.id || fromDiff.id === before.id) before = fromDiff;
      }
      records.push(this.#change(path, before, d.after, "disk", this.#claims.get(path)));
    }
    if (!this.#tracker || this.#tracker.mode === "off") await this.#fromToolDiffs(records);
    for (const r of records)
      if (r.before && !r.before.stored && r.before.id && !r.before.binary && !r.before.tooLarge)
        this.#notes.push(`${r.path}: the version before the turn was not available (it was not in the baseline)`);
    await this.#host.blobs.sync(
      records.flatMap((r) => [r.before?.id, r.after?.id].filter((x): x is string => !!x && this.#host.blobs.has(x))),
    );
    const files = new Set([...records.map((r) => r.path), ...this.#writes.keys()]).size;
    await this.#append([
      ...records,
      {
        kind: "op",
        op: this.op,
        type: "turn",
        turn: this.info.turn,
        agent: this.info.agent,
        cwd: this.info.cwd,
        startedAt: this.startedAt,
        status,
        files,
        ...(this.#notes.length ? { notes: this.#notes } : {}),
      },
    ]);
    return await this.#host.finished(this);
  }

  /** No disk tracking (folder over the file limit): the agents' diffs, checked against the disk, stand in. */
  async #fromToolDiffs(records: Input<ChangeRecord>[]): Promise<void> {
    for (const [path, diff] of this.#diffs) {
      if (this.#writes.has(path)) continue;
      // only files of the workspace, never read through a link (an agent's diff may name any path)
      const link = await isSymlink(path);
      if (link || !isInside(this.root, path) || !(await realInside(this.root, path).catch(() => false))) {
        this.#notes.push(`${path}: not recorded, it is outside the workspace or a symbolic link`);
        continue;
      }
      const now = await readFile(path).catch(() => undefined);
      const after = now ? await this.#storeBuffer(now) : null;
      const before = diff.oldText === null ? null : await this.#storeText(diff.oldText);
      if (before?.id !== after?.id) records.push(this.#change(path, before, after, "disk", diff.toolCallId));
    }
  }

  #change(
    path: string,
    before: FileState | null,
    after: FileState | null,
    via: ChangeRecord["via"],
    toolCallId?: string,
  ): Input<ChangeRecord> {
    return { kind: "change", op: this.op, path, before, after, via, ...(toolCallId ? { toolCallId } : {}) };
  }

  #storeText(text: string): Promise<FileState> {
    return this.#storeBuffer(Buffer.from(text, "utf8"));
  }

  #storeBuffer(buf: Buffer): Promise<FileState> {
    return keepVersion(this.#host.blobs, buf);
  }

  #append(inputs: LedgerInput[]): Promise<void> {
    return this.#host.append(this.info.threadId, inputs);
  }

  #chain(fn: () => Promise<void>): void {
    this.#pending = this.#pending
      .then(fn)
      .catch((err) => this.#host.warn(`recording a write failed: ${errorMessage(err)}`));
  }

  /** Agents name paths under the cwd they were given; the tracker and the fs handler use resolved paths. */
  #canonical(path: string): string {
    const cwd = this.info.cwd.replace(/[\\/]+$/, "");
    return path === cwd || path.startsWith(cwd + sep) ? this.root + path.slice(cwd.length) : path;
  }
}
