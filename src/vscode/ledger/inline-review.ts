/**
 * Review in the editor itself: in a file an agent changed, each hunk not yet kept or undone is highlighted and
 * carries "Keep | Undo | turn N · agent" above it (CodeLens) — "Keep | Undo | applied from worktree T" for a hunk
 * a worktree apply (or a merged conflict of one) brought into the workspace — for the threads under review — every thread live
 * in this window, plus any thread opened for review. A hunk whose lines were edited since is no longer placed
 * (the diff editor still shows it). The editor title gets Keep / Undo for all of the active file's hunks.
 */
import * as vscode from "vscode";
import type { Engine, EngineReplies } from "../../core/engine/requests";
import { errorMessage } from "../../core/errors";
import type { LedgerHost } from "./ledger-host";

/** A pending hunk placed on a document's lines now (the engine's `review.placed`). */
export type PlacedHunk = EngineReplies["review.placed"][number];

export interface ChangeTarget {
  threadId: string;
  op: string;
  path: string;
  hunk: number | null;
}

const CONTEXT_KEY = "acpThreads.pendingReview";

/**
 * How many threads that left the review with nothing pending are remembered: a change that makes one pending again
 * (its restore undone) brings it back. Older ones are forgotten (reviewing the thread again watches it).
 */
export const LEFT_REMEMBERED = 64;

export class InlineReview implements vscode.CodeLensProvider, vscode.Disposable {
  readonly #host: LedgerHost;
  /**
   * The threads under review, each with the number of the last ask about it (`#asks`): a pending check answered
   * after a newer change of the thread decides nothing. Only threads with something pending stay (`#check`), and a
   * deleted or archived one leaves (`leave`), so the list stays as long as what is left to review.
   */
  readonly #threads = new Map<string, number>();
  #asks = 0;
  /** Threads that left with nothing pending, oldest first (at most `LEFT_REMEMBERED`). */
  readonly #left = new Set<string>();
  /**
   * The window's engine: it places the hunks from what it read of the watched threads and keeps (their views and
   * reviewed files, read off the host's thread, let go when a thread records more: `review.forget`).
   */
  readonly #engine: Engine;
  /** Decorations asked for; one that an edit, a switch of editor or a newer ask overtook applies nothing. */
  #decorations = 0;
  readonly #lenses = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.#lenses.event;
  readonly #added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  readonly #removed = vscode.window.createTextEditorDecorationType({
    borderStyle: "solid none none none",
    borderWidth: "2px",
    borderColor: new vscode.ThemeColor("editorGutter.deletedBackground"),
    isWholeLine: true,
  });
  readonly #subs: vscode.Disposable[] = [];

  constructor(
    host: LedgerHost,
    engine: Engine,
    private readonly titleOf: (threadId: string) => Promise<string | undefined> = async () => undefined,
  ) {
    this.#host = host;
    this.#engine = engine;
    this.#subs.push(
      vscode.languages.registerCodeLensProvider({ scheme: "file" }, this),
      host.onDidChange(({ threadId }) => {
        // forgotten before the views place again: the engine serves requests in the order they are asked
        this.#forget(threadId);
        // a keep, an undo or a restore may have settled the thread's last change (or an undone restore brought one
        // back): asked after the forget, so about what the thread recorded now
        if (this.#threads.has(threadId) || this.#left.has(threadId)) this.#check(threadId);
        this.refresh();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.#decorate()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.#decorate();
      }),
      this.#lenses,
      this.#added,
      this.#removed,
    );
  }

  /** The threads under review. */
  get watched(): ReadonlySet<string> {
    return new Set(this.#threads.keys());
  }

  /** Puts a thread's changes under review in the editor (until nothing of it is pending). */
  watch(threadId: string): void {
    if (this.#threads.has(threadId)) return;
    this.#left.delete(threadId);
    this.#threads.set(threadId, ++this.#asks);
    this.#check(threadId);
    this.refresh();
  }

  /** Takes a thread out of the review for good (it was deleted or archived); the engine forgets what it read. */
  leave(threadId: string): void {
    this.#left.delete(threadId);
    if (!this.#threads.delete(threadId)) return;
    this.#forget(threadId);
    this.refresh();
  }

  /**
   * Asks the engine whether anything of the thread is still to review: a watched thread with nothing pending leaves
   * (remembered, so an undone restore brings it back), a thread that left with something pending again comes back.
   */
  #check(threadId: string): void {
    const ask = ++this.#asks;
    if (this.#threads.has(threadId)) this.#threads.set(threadId, ask);
    this.#engine.call({ op: "review.pending", threadId }).then(
      ({ pending }) => {
        if (pending && this.#left.has(threadId)) return this.watch(threadId);
        if (pending || this.#threads.get(threadId) !== ask) return;
        this.#threads.delete(threadId);
        this.#left.add(threadId);
        for (const old of this.#left) if (this.#left.size > LEFT_REMEMBERED) this.#left.delete(old);
        this.#forget(threadId);
        this.refresh();
      },
      (err: unknown) => this.#host.logger.warn("asking what is left to review of a thread failed", err),
    );
  }

  #forget(threadId: string): void {
    this.#engine
      .call({ op: "review.forget", threadId })
      .then(undefined, (err: unknown) => this.#host.logger.warn("letting a reviewed thread's reads go failed", err));
  }

  refresh(): void {
    this.#lenses.fire();
    this.#decorate();
  }

  /** The hunks still to review in `doc`, placed on its current lines (nothing read once its threads were read). */
  placed(doc: vscode.TextDocument): Promise<PlacedHunk[]> {
    if (doc.uri.scheme !== "file") return Promise.resolve([]);
    return this.#engine.call({
      op: "review.placed",
      threads: [...this.#threads.keys()],
      path: doc.uri.fsPath,
      text: doc.getText(),
    });
  }

  async provideCodeLenses(doc: vscode.TextDocument, token?: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const placed = await this.placed(doc);
    if (token?.isCancellationRequested) return [];
    // an apply's lens names its thread: each title read once, off the host's thread
    const applied = [...new Set(placed.filter((p) => p.type === "apply").map((p) => p.threadId))];
    const titles = new Map(await Promise.all(applied.map(async (id) => [id, await this.titleOf(id)] as const)));
    return placed.flatMap((p) => {
      const line = Math.min(p.start, Math.max(0, doc.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      const target: ChangeTarget = { threadId: p.threadId, op: p.op, path: p.path, hunk: p.hunk };
      return [
        new vscode.CodeLens(range, { title: "$(check) Keep", command: "acpThreads.keepChange", arguments: [target] }),
        new vscode.CodeLens(range, { title: "$(discard) Undo", command: "acpThreads.undoChange", arguments: [target] }),
        new vscode.CodeLens(
          range,
          p.type === "apply"
            ? {
                title: `applied from worktree ${titles.get(p.threadId) ?? "of a thread"}`,
                command: "acpThreads.openThread",
                arguments: [p.threadId],
              }
            : {
                title: `turn ${p.turn} · ${p.agent}`,
                command: "acpThreads.openTurn",
                arguments: [p.threadId, p.turn],
              },
        ),
      ];
    });
  }

  async keep(t: ChangeTarget): Promise<void> {
    await this.#engine.call({ op: "review.keep", threadId: t.threadId, target: t.op, path: t.path, ...hunkOf(t) });
    this.#host.changed(t.threadId);
  }

  async undo(t: ChangeTarget): Promise<void> {
    // the engine refuses a file outside the thread's folders and merges into the editor's text, written through it
    await this.#engine.call({ op: "review.undo", threadId: t.threadId, target: t.op, path: t.path, ...hunkOf(t) });
    this.#host.changed(t.threadId);
  }

  /** Keep or Undo every hunk still pending in the active file (newest first for Undo). */
  async settleActiveFile(action: "keep" | "undo"): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc) return;
    const files = new Map<string, ChangeTarget>();
    for (const p of await this.placed(doc))
      files.set(`${p.threadId} ${p.op}`, { threadId: p.threadId, op: p.op, path: p.path, hunk: null });
    const targets = [...files.values()].reverse();
    for (const t of targets) {
      try {
        await (action === "keep" ? this.keep(t) : this.undo(t));
      } catch (err) {
        void vscode.window.showWarningMessage(`ACP Threads: ${errorMessage(err)}`);
        return;
      }
    }
  }

  /**
   * Of the threads under review, and those that left it with everything settled (a comment on kept code still goes
   * to its thread), the last to change `path`, from what the engine keeps.
   */
  async author(path: string): Promise<string | undefined> {
    const threads = [...this.#threads.keys(), ...this.#left];
    return (await this.#engine.call({ op: "review.author", threads, path })).threadId;
  }

  #decorate(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    const mine = ++this.#decorations;
    const version = editor.document.version;
    this.placed(editor.document).then(
      (placed) => {
        // an edit, another editor or a newer ask since: theirs is the placement to show (an editor that only lost
        // the focus, to a panel say, still shows its own)
        const active = vscode.window.activeTextEditor;
        if (mine !== this.#decorations || (active && active !== editor) || editor.document.version !== version) return;
        this.#show(editor, placed);
      },
      (err: unknown) => this.#host.logger.warn("placing the changes to review failed", err),
    );
  }

  #show(editor: vscode.TextEditor, placed: PlacedHunk[]): void {
    const line = (n: number) => new vscode.Range(n, 0, n, 0);
    editor.setDecorations(
      this.#added,
      placed.flatMap((p) => Array.from({ length: p.end - p.start }, (_, i) => line(p.start + i))),
    );
    editor.setDecorations(
      this.#removed,
      placed
        .filter((p) => p.removes && p.end === p.start)
        .map((p) => line(Math.min(p.start, editor.document.lineCount - 1))),
    );
    void vscode.commands.executeCommand("setContext", CONTEXT_KEY, placed.length > 0);
  }

  dispose(): void {
    for (const s of this.#subs) s.dispose();
  }
}

/** A hunk of the change, or (none) the whole file. */
const hunkOf = (t: ChangeTarget): { hunk?: number } => (t.hunk === null ? {} : { hunk: t.hunk });
