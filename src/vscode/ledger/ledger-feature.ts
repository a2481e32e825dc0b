/**
 * Checkpoints, review and provenance in the editor (#11), as one Hub member: the ledger host, inline review,
 * provenance hovers, and the command handlers (review a turn or a thread, keep / undo a hunk or a file,
 * restore to before a turn, open a turn). Command arguments come from anywhere (sessions view nodes, CodeLens,
 * hovers, the thread panel), so each handler accepts a thread id or a node and resolves it.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Engine } from "../../core/engine/requests";
import { isThreadId } from "../../core/model/thread-id";
import type { HostEvent } from "../../core/host/protocol";
import type { Logger } from "../../core/log";
import type { ReviewComment } from "../../core/prompt/review";
import type { ThreadStore } from "../../core/store/thread-store";
import { background } from "../../core/util/unexpected";
import type { HostMessage } from "../../webview/thread/protocol";
import { InlineReview, type ChangeTarget } from "./inline-review";
import { LedgerHost } from "./ledger-host";
import { followTurnChanges, turnChangesOf } from "./panel-changes";
import { ProvenanceHover } from "./provenance-hover";
import { asNoteComment, ReviewComments } from "./review-comments";
import {
  keepTurn,
  restoreTurn,
  reviewThread,
  reviewTurn,
  type RestoreOptions,
  type ReviewDeps,
  type ThreadInfo,
} from "./review-commands";

export interface LedgerFeatureDeps {
  home: string;
  logger: Logger;
  /** dist/walk-worker.js: stat walks (no directory watches) off the host's thread. */
  walkWorker?: string;
  threads: ThreadStore;
  /** The window's engine, over this feature's live ledger and the editor: the Restore goes through it. */
  engine: Engine;
  /** A thread id or a sessions-view node → the stored thread's id. */
  resolveThread(arg: unknown): Promise<string | undefined>;
  /** Shows the thread's panel at the start of `turn`. */
  showTurn(threadId: string, turn: number): Promise<void>;
  /** The thread's display title now (thread-title.ts): the hover names it as the tab does. */
  titleOf?(threadId: string): string | undefined;
  /**
   * The window's thread events (the threads catalog's change: this window's delete or archive, another process's
   * writes) and which of the given threads are gone (deleted) or archived, off the host's thread: those leave the
   * inline review.
   */
  onThreadsChanged?: vscode.Event<void>;
  threadsGone?(threadIds: string[]): Promise<Set<string>>;
  /** Sends review comments as the thread's next prompt (resuming it; queued behind a running turn). */
  sendReview?(threadId: string, comments: ReviewComment[], root: string, intro?: string): Promise<"sent" | "queued">;
}

/** The threads whose folder and title are kept (the most recently asked): a long day's hovers stay bounded. */
export const INFO_KEPT = 256;

export class LedgerFeature implements vscode.Disposable {
  readonly host: LedgerHost;
  readonly inline: InlineReview;
  readonly hover: ProvenanceHover;
  readonly comments: ReviewComments;
  readonly #deps: LedgerFeatureDeps;
  readonly #info = new Map<string, ThreadInfo>();
  readonly #review: ReviewDeps;
  readonly #threadsSub: vscode.Disposable | undefined;

  constructor(deps: LedgerFeatureDeps) {
    this.#deps = deps;
    this.host = new LedgerHost(deps.home, deps.logger, async (id) => (await this.#infoOf(id))?.title, deps.walkWorker);
    this.inline = new InlineReview(this.host, deps.engine, (id) => this.#titleOf(id));
    this.hover = new ProvenanceHover(this.host.provenance, (id) => this.#titleOf(id));
    this.comments = new ReviewComments({
      threadsDir: deps.threads.threadsDir,
      author: (path) => this.inline.author(path),
      cwdOf: async (id) => (await this.#infoOf(id))?.cwd,
      send: (id, comments, root, intro) => {
        if (!deps.sendReview) throw new Error("Sending a review is not available in this window.");
        return deps.sendReview(id, comments, root, intro);
      },
      warn: (m, err) => deps.logger.warn(m, err),
    });
    const watch = (id: string) => {
      this.inline.watch(id);
      background(this.comments.show(id), "showing a thread's review comments");
    };
    this.host.onDidChange(({ threadId, op }) => {
      this.hover.reset();
      // a turn recorded in this window puts its thread under inline review
      if (op?.type === "turn") watch(threadId);
    });
    this.#review = { host: this.host, engine: deps.engine, info: (id) => this.#require(id), watch };
    const gone = deps.threadsGone;
    this.#threadsSub = gone && deps.onThreadsChanged?.(() => background(this.#leaveGone(gone), "reviewing threads"));
  }

  /** The watched threads that were deleted or archived leave the inline review (and the info kept of them goes). */
  async #leaveGone(gone: (ids: string[]) => Promise<Set<string>>): Promise<void> {
    const watched = [...this.inline.watched];
    if (!watched.length) return;
    for (const id of await gone(watched)) {
      this.inline.leave(id);
      this.#info.delete(id);
    }
  }

  /**
   * Puts a thread's changes under inline review: a worktree apply (or a merged conflict of one) records its
   * operation outside a turn, so its action calls this once the apply is written.
   */
  watch(threadId: string): void {
    this.#review.watch(threadId);
  }

  /**
   * The turns the thread host runs (#35), as its events tell them (`turn_ended`, a missed one read back after a
   * reconnect too): the host's own ledger recorded them, and this window shows them as it shows its own turns.
   */
  followHosted(onEvent: vscode.Event<HostEvent>): vscode.Disposable {
    return onEvent((e) => {
      if (e.kind === "turn_ended")
        background(this.host.recordedElsewhere(e.threadId), "showing what a turn of the thread host changed");
    });
  }

  /** The engine's ledger, for thread sessions and exec runs. */
  get ledger() {
    return this.host.ledger;
  }

  async reviewTurn(arg?: unknown, turn?: number | { op: string }): Promise<void> {
    const id = await this.#thread(arg, "Review changes");
    if (id) await reviewTurn(this.#review, id, typeof turn === "number" || isOp(turn) ? turn : undefined);
  }

  async reviewThread(arg?: unknown): Promise<void> {
    const id = await this.#thread(arg, "Review changes");
    if (id) await reviewThread(this.#review, id);
  }

  async restoreTurn(arg?: unknown, turn?: number | { op: string }, opts?: RestoreOptions): Promise<string | undefined> {
    const id = await this.#thread(arg, "Restore workspace");
    const target = typeof turn === "number" || isOp(turn) ? turn : undefined;
    return id ? restoreTurn(this.#review, id, target, opts) : undefined;
  }

  /** "Keep all" of a turn or an apply `{op}` (the panel's rows); how many changes were kept. */
  async keepTurn(arg?: unknown, turn?: number | { op: string }): Promise<number> {
    const id = await this.#thread(arg, "Keep all changes");
    return id ? keepTurn(this.#review, id, typeof turn === "number" || isOp(turn) ? turn : undefined) : 0;
  }

  /** The panel's "N files changed" rows of a stored thread, as they are sent to it. */
  async turnChanges(threadId: string) {
    return turnChangesOf(this.#deps.engine, threadId, (await this.#require(threadId)).cwd);
  }

  /** Keep or Undo every change still to review in the active file. */
  settleFile(action: "keep" | "undo"): Promise<void> {
    return this.inline.settleActiveFile(action);
  }

  keep(target: unknown): Promise<void> {
    return this.inline.keep(asTarget(target));
  }

  undo(target: unknown): Promise<void> {
    return this.inline.undo(asTarget(target));
  }

  /** Review comments: the comment widget's and the comment's own actions. */
  addComment(reply: unknown): Promise<void> {
    const r = reply as vscode.CommentReply | undefined;
    if (!r?.thread || typeof r.text !== "string") throw new Error("Comment from a line of a reviewed file.");
    return this.comments.add(r);
  }

  /** Edit and Cancel only change the editor; Save and Delete resolve once written. */
  async commentAction(action: "edit" | "save" | "cancel" | "delete", comment: unknown): Promise<void> {
    await this.comments[action](asNoteComment(comment));
  }

  /** "Send review to agent" (a comment thread, a thread id or a sessions-view node, or the active file's thread). */
  /** `opts.intro`: the prompt's opening line instead of the default one. */
  async sendReview(arg?: unknown, opts?: { intro?: unknown }): Promise<"sent" | "queued" | undefined> {
    const id =
      typeof arg === "string" || (arg && !("uri" in (arg as object))) ? await this.#deps.resolveThread(arg) : undefined;
    return this.comments.send(id ?? arg, typeof opts?.intro === "string" ? opts.intro : undefined);
  }

  async openTurn(arg: unknown, turn: unknown): Promise<void> {
    const id = await this.#thread(arg, "Open turn");
    if (id) await this.#deps.showTurn(id, typeof turn === "number" ? turn : 1);
  }

  /** For the thread panels: "N files changed" rows of the panel's stored thread. */
  followTurnChanges(post: (m: HostMessage) => void, storeThreadId: () => string | undefined): vscode.Disposable {
    return followTurnChanges(
      this.host,
      this.#deps.engine,
      post,
      storeThreadId,
      async (id) => (await this.#infoOf(id))?.cwd,
    );
  }

  /** The thread a command means; from the palette, a pick among the threads with recorded changes. */
  async #thread(arg: unknown, title: string): Promise<string | undefined> {
    const id = await this.#deps.resolveThread(arg);
    if (id || arg !== undefined) {
      if (!id) throw new Error("That thread is not stored (it never started, or it was deleted).");
      return id;
    }
    const infos = (await recentLedgers(this.host.ledger.dir)).map(async (threadId) => {
      const info = await this.#infoOf(threadId);
      return info ? [{ label: info.title, description: vscode.workspace.asRelativePath(info.cwd), threadId }] : [];
    });
    const recent = (await Promise.all(infos)).flat();
    if (!recent.length) return void vscode.window.showInformationMessage("No thread has recorded file changes yet.");
    return (await vscode.window.showQuickPick(recent, { title, placeHolder: "Which thread?" }))?.threadId;
  }

  async #require(threadId: string): Promise<ThreadInfo> {
    const info = await this.#infoOf(threadId);
    if (!info) throw new Error(`No thread ${threadId}.`);
    return info;
  }

  /** The hover's and the CodeLens' title: the window's (as the tab names it), else the stored thread's. */
  async #titleOf(threadId: string): Promise<string | undefined> {
    return this.#deps.titleOf?.(threadId) ?? (await this.#infoOf(threadId))?.title;
  }

  /** A thread's folder and title, read off the host's thread once (then kept); undefined when it is not stored. */
  async #infoOf(threadId: string): Promise<ThreadInfo | undefined> {
    const info = this.#info.get(threadId);
    if (info) return this.#keep(threadId, info);
    const read = await this.#deps.threads.readAsync(threadId);
    return read && this.#keep(threadId, read.metadata);
  }

  /** Kept as the most recent; the least recently asked beyond `INFO_KEPT` is let go (read again if asked). */
  #keep(threadId: string, m: { cwd: string; title?: string | null }): ThreadInfo {
    const info = { cwd: m.cwd, title: m.title ?? "(untitled)" };
    this.#info.delete(threadId);
    this.#info.set(threadId, info);
    for (const old of this.#info.keys()) if (this.#info.size > INFO_KEPT) this.#info.delete(old);
    return info;
  }

  /** How many threads' folder and title are kept (tests). */
  get infoKept(): number {
    return this.#info.size;
  }

  dispose(): void {
    this.#threadsSub?.dispose();
    this.hover.dispose();
    this.comments.dispose();
    this.inline.dispose();
    this.host.dispose();
  }
}

/** Thread ids with a ledger, most recently changed first. */
async function recentLedgers(dir: string, max = 30): Promise<string[]> {
  const names = await readdir(dir).then(
    (all) => all.filter((n) => n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))),
    () => [],
  );
  const dated = names.map(async (n) => ({ id: n.slice(0, -6), at: (await stat(join(dir, n))).mtimeMs }));
  return (await Promise.all(dated))
    .sort((a, b) => b.at - a.at)
    .slice(0, max)
    .map((x) => x.id);
}

const isOp = (v: unknown): v is { op: string } => !!v && typeof (v as { op?: unknown }).op === "string";

function asTarget(v: unknown): ChangeTarget {
  const t = v as Partial<ChangeTarget> | undefined;
  if (!t || typeof t.threadId !== "string" || typeof t.op !== "string" || typeof t.path !== "string")
    throw new Error("Keep / Undo needs a change (use the CodeLens above a change).");
  return { threadId: t.threadId, op: t.op, path: t.path, hunk: typeof t.hunk === "number" ? t.hunk : null };
}
