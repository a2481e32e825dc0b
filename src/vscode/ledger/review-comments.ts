/**
 * Review that talks back (issue #25 item 4): in a file an agent changed (its inline review, or the right side of
 * the review diff), the user comments on a line or a hunk with VS Code's Comments API; "Send review to agent"
 * sends the thread's unsent comments (file, lines, the code quoted, the comment) as its next prompt, then marks
 * them sent (resolved) so they never go twice. The comments belong to the agent thread that last changed the
 * file and are kept beside it (core/store/review-notes.ts), so they come back after a reload.
 */
import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { ReviewComment } from "../../core/prompt/review";
import { ReviewNotes, type ReviewNote } from "../../core/store/review-notes";
import { currentText } from "./ledger-host";

export const REVIEW_CONTROLLER_ID = "acpThreads.review";
/** Context key: the active (or a visible) editor's file has review comments not yet sent. */
const PENDING_KEY = "acpThreads.reviewCommentsPending";

export interface ReviewCommentsDeps {
  threadsDir: string;
  /** Of the threads under review, the last to change the file at `path` (the engine's `review.author`). */
  author(path: string): Promise<string | undefined>;
  cwdOf(threadId: string): Promise<string | undefined>;
  /** Sends the comments as the thread's next prompt (queued behind a running turn). */
  send(threadId: string, comments: ReviewComment[], root: string, intro?: string): Promise<"sent" | "queued">;
  /** Work not awaited failed (the output channel). */
  warn(message: string, err: unknown): void;
}

/** One comment as the editor shows it. */
class NoteComment implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  author = { name: "You" };
  contextValue: string;
  label: string | undefined;
  body: string | vscode.MarkdownString;
  savedBody: string;
  constructor(
    readonly note: ReviewNote,
    readonly threadId: string,
  ) {
    this.body = this.savedBody = note.body;
    this.contextValue = note.sentAt ? "sent" : "unsent";
    this.label = note.sentAt ? "sent to the agent" : undefined;
  }
}

/** The setting that lets the user comment on an agent's changed lines (off by default, see the constructor). */
export const COMMENTS_SETTING = "review.comments";

const bodyText = (b: string | vscode.MarkdownString) => (typeof b === "string" ? b : b.value);

export class ReviewComments implements vscode.Disposable {
  readonly controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, "ACP Threads review");
  readonly notes: ReviewNotes;
  /** Editor comment threads by note group. */
  readonly #threads = new Map<string, vscode.CommentThread>();
  readonly #groupOf = new WeakMap<vscode.CommentThread, { group: string; threadId: string }>();
  readonly #shown = new Set<string>();
  #contextAsked = 0;
  readonly #subs: vscode.Disposable[] = [];

  constructor(private readonly deps: ReviewCommentsDeps) {
    this.notes = new ReviewNotes(deps.threadsDir);
    this.controller.options = { prompt: "Comment for the agent", placeHolder: "What should the agent change here?" };
    // Opt-in (acpThreads.review.comments): while any commenting range provider is registered, VS Code's merge editor
    // fails to open for a later agent write that conflicts with unsaved edits (the host suite's merge tests), and
    // that write then stays unanswered. Stored comments still show, and Send still sends them.
    const provider: vscode.CommentingRangeProvider = {
      provideCommentingRanges: async (doc) =>
        (await this.threadOf(doc.uri)) ? [new vscode.Range(0, 0, Math.max(0, doc.lineCount - 1), 0)] : [],
    };
    const apply = () =>
      (this.controller.commentingRangeProvider = vscode.workspace
        .getConfiguration("acpThreads")
        .get<boolean>(COMMENTS_SETTING, false)
        ? provider
        : undefined);
    apply();
    this.#subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`acpThreads.${COMMENTS_SETTING}`)) apply();
      }),
      this.controller,
      vscode.window.onDidChangeActiveTextEditor(() => this.#context()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.#context()),
    );
  }

  /** The agent thread a file's comments belong to: of the threads under review, the last to change it. */
  async threadOf(uri: vscode.Uri): Promise<string | undefined> {
    if (uri.scheme !== "file") return undefined;
    return this.deps.author(uri.fsPath);
  }

  /** Shows a thread's stored comments (once per window), read off the host's thread. */
  async show(threadId: string): Promise<void> {
    if (this.#shown.has(threadId)) return;
    this.#shown.add(threadId);
    let notes: ReviewNote[];
    try {
      notes = await this.notes.listAsync(threadId);
    } catch (err) {
      void vscode.window.showWarningMessage(`ACP Threads: the review comments could not be read: ${errorMessage(err)}`);
      return;
    }
    const groups = new Map<string, ReviewNote[]>();
    for (const n of notes) groups.set(n.group, [...(groups.get(n.group) ?? []), n]);
    for (const [group, list] of groups) {
      if (this.#threads.has(group)) continue; // commented on while the file was read: shown already
      const first = list[0]!;
      const thread = this.controller.createCommentThread(
        vscode.Uri.file(first.path),
        new vscode.Range(first.start - 1, 0, first.end - 1, 0),
        list.map((n) => new NoteComment(n, threadId)),
      );
      this.#track(thread, group, threadId);
    }
    this.#context();
  }

  /** "Comment": a new comment on the lines of `reply.thread` (a new thread or an answer in one). */
  async add(reply: vscode.CommentReply): Promise<void> {
    const thread = reply.thread;
    const known = this.#groupOf.get(thread);
    const threadId = known?.threadId ?? (await this.threadOf(thread.uri));
    if (!threadId) throw new Error("Comments go on files an agent thread changed (open its review first).");
    if (!reply.text.trim()) return;
    const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
    const start = range.start.line + 1;
    const end = Math.max(start, range.end.line + 1);
    const text = (await currentText(thread.uri.fsPath)) ?? "";
    const quote = text
      .replace(/\r\n/g, "\n")
      .split("\n")
      .slice(start - 1, end)
      .join("\n");
    const note: ReviewNote = {
      id: randomUUID(),
      group: known?.group ?? randomUUID(),
      path: thread.uri.fsPath,
      start,
      end,
      body: reply.text,
      quote,
      createdAt: new Date().toISOString(),
    };
    await this.#write(threadId, (all) => [...all, note]);
    thread.comments = [...thread.comments, new NoteComment(note, threadId)];
    this.#track(thread, note.group, threadId);
    this.#context();
  }

  edit(c: NoteComment): void {
    this.#replace(
      c,
      (x) => x === c,
      (x) => Object.assign(x, { mode: vscode.CommentMode.Editing }),
    );
  }

  cancel(c: NoteComment): void {
    this.#replace(
      c,
      (x) => x === c,
      (x) => Object.assign(x, { mode: vscode.CommentMode.Preview, body: x.savedBody }),
    );
  }

  /** Shown at once; resolves once written (after the thread's changes asked before). */
  save(c: NoteComment): Promise<void> {
    const body = bodyText(c.body);
    const written = this.#write(c.threadId, (all) => all.map((n) => (n.id === c.note.id ? { ...n, body } : n)));
    c.note.body = c.savedBody = body;
    this.#replace(
      c,
      (x) => x === c,
      (x) => Object.assign(x, { mode: vscode.CommentMode.Preview }),
    );
    return written;
  }

  /** Gone from the editor at once; resolves once written. */
  delete(c: NoteComment): Promise<void> {
    const written = this.#write(c.threadId, (all) => all.filter((n) => n.id !== c.note.id));
    const thread = this.#threads.get(c.note.group);
    if (thread) {
      thread.comments = thread.comments.filter((x) => x !== c);
      if (!thread.comments.length) {
        this.#threads.delete(c.note.group);
        thread.dispose();
      }
    }
    this.#context();
    return written;
  }

  /** The comments of `threadId` not sent yet, grouped as the editor shows them, in file and line order. */
  async pending(threadId: string): Promise<ReviewNote[][]> {
    const groups = new Map<string, ReviewNote[]>();
    for (const n of (await this.notes.listAsync(threadId)).filter((n) => !n.sentAt))
      groups.set(n.group, [...(groups.get(n.group) ?? []), n]);
    return [...groups.values()].sort((a, b) => a[0]!.path.localeCompare(b[0]!.path) || a[0]!.start - b[0]!.start);
  }

  /**
   * "Send review to agent": `arg` is a comment thread (its title action), an agent thread id, or nothing (the
   * active editor's file). Returns how the prompt went, or undefined when there was nothing to send.
   */
  async send(arg?: unknown, intro?: string): Promise<"sent" | "queued" | undefined> {
    const threadId = await this.#target(arg);
    if (!threadId) throw new Error("Open a file an agent changed (or its review) to send its review comments.");
    await this.show(threadId);
    const groups = await this.pending(threadId);
    if (!groups.length) return void vscode.window.showInformationMessage("No review comments to send.");
    const root = (await this.deps.cwdOf(threadId)) ?? "";
    const comments: ReviewComment[] = [];
    for (const g of groups) {
      const n = g[0]!;
      const text = await currentText(n.path);
      const lines = text?.replace(/\r\n/g, "\n").split("\n");
      // the code as it is now; the code commented on when those lines are gone
      const quote = lines && n.end <= lines.length ? lines.slice(n.start - 1, n.end).join("\n") : n.quote;
      comments.push({
        path: n.path,
        range: { start: n.start, end: n.end },
        quote,
        body: g.map((x) => x.body).join("\n"),
      });
    }
    const how = await this.deps.send(threadId, comments, root, intro);
    const ids = new Set(groups.flat().map((n) => n.id));
    const sentAt = new Date().toISOString();
    await this.#write(threadId, (all) => all.map((n) => (ids.has(n.id) ? { ...n, sentAt } : n)));
    for (const g of groups) this.#markSent(g[0]!.group, sentAt);
    this.#context();
    const n = ids.size;
    void vscode.window.showInformationMessage(
      `${n} review comment${n === 1 ? "" : "s"} ${how === "queued" ? "queued for the agent (after the running turn)" : "sent to the agent"}.`,
    );
    return how;
  }

  async #target(arg: unknown): Promise<string | undefined> {
    if (typeof arg === "string") return arg;
    const known = arg ? this.#groupOf.get(arg as vscode.CommentThread) : undefined;
    if (known) return known.threadId;
    if (arg && (arg as vscode.CommentThread).uri) return this.threadOf((arg as vscode.CommentThread).uri);
    return this.#shownThread();
  }

  /** The thread of the active editor's file, else of the first visible one that has a thread (focus may be in a comment). */
  async #shownThread(): Promise<string | undefined> {
    const editors = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors];
    for (const e of editors) {
      const id = e && (await this.threadOf(e.document.uri));
      if (id) return id;
    }
    return undefined;
  }

  #markSent(group: string, sentAt: string): void {
    const thread = this.#threads.get(group);
    if (!thread) return;
    thread.comments = thread.comments.map((c) => {
      if (!(c instanceof NoteComment)) return c;
      c.note.sentAt = sentAt;
      return new NoteComment(c.note, c.threadId);
    });
    thread.state = vscode.CommentThreadState.Resolved;
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
    thread.canReply = false;
    thread.contextValue = "sent";
  }

  #track(thread: vscode.CommentThread, group: string, threadId: string): void {
    this.#threads.set(group, thread);
    this.#groupOf.set(thread, { group, threadId });
    const sent = thread.comments.length > 0 && thread.comments.every((c) => c.contextValue === "sent");
    thread.label = "Review comment for the agent";
    thread.contextValue = sent ? "sent" : "unsent";
    thread.state = sent ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.canReply = !sent;
    if (sent) thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
  }

  #replace(c: NoteComment, match: (x: NoteComment) => boolean, f: (x: NoteComment) => NoteComment): void {
    const thread = this.#threads.get(c.note.group);
    if (thread) thread.comments = thread.comments.map((x) => (x instanceof NoteComment && match(x) ? f(x) : x));
  }

  /** A file that does not read back starts over (set aside first, so nothing is lost); off the host's thread. */
  async #write(threadId: string, change: (all: ReviewNote[]) => ReviewNote[]): Promise<void> {
    await this.notes.update(threadId, change, (err) => {
      void vscode.window.showWarningMessage(
        `ACP Threads: the review comments file could not be read (${errorMessage(err)}); it was set aside.`,
      );
    });
  }

  /** Sets the context key for the shown file's thread; when answers cross, the newest is set. */
  #context(): void {
    const mine = ++this.#contextAsked;
    const pending = this.#shownThread().then((threadId) =>
      threadId
        ? this.pending(threadId).then(
            (groups) => groups.length > 0,
            () => false, // an unreadable file says so when it is shown
          )
        : false,
    );
    pending
      .then((p) =>
        mine === this.#contextAsked ? vscode.commands.executeCommand("setContext", PENDING_KEY, p) : undefined,
      )
      .then(undefined, (err: unknown) => this.deps.warn("updating the review comments' context key failed", err));
  }

  dispose(): void {
    for (const s of this.#subs) s.dispose();
  }
}

/** A comment from a command argument (the comment's own title or context action). */
export function asNoteComment(v: unknown): NoteComment {
  if (!(v instanceof NoteComment)) throw new Error("This action needs a review comment (use the comment's buttons).");
  return v;
}
