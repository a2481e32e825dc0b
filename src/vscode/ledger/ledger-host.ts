/**
 * The edit ledger in the editor: one EditLedger for the data home (passed to every thread session and exec run),
 * the `acp-threads-ledger:` documents that show recorded versions in diff editors, the conflict radar's
 * notices, and the writer review and restore use (open documents are edited in place and saved, so an editor
 * never ends up with a stale buffer over a file we changed).
 */
import * as vscode from "vscode";
import type { LocalEngineOptions } from "../../core/engine/local";
import { describeState, type FileState } from "../../core/ledger/content";
import { EditLedger, type LedgerRecorded } from "../../core/ledger/edit-ledger";
import { ProvenanceIndex } from "../../core/ledger/provenance";
import { diskWriter, type FileWriter } from "../../core/ledger/restore";
import type { Logger } from "../../core/log";
import { background } from "../../core/util/unexpected";

export const LEDGER_SCHEME = "acp-threads-ledger";

export class LedgerHost implements vscode.Disposable {
  readonly ledger: EditLedger;
  readonly provenance: ProvenanceIndex;
  readonly #changed = new vscode.EventEmitter<LedgerRecorded | { threadId: string; op?: undefined }>();
  /** A turn, restore, undo or keep was recorded (the thread's views refresh). */
  readonly onDidChange = this.#changed.event;
  readonly #subs: vscode.Disposable[] = [];

  /** `walkWorker`: dist/walk-worker.js, so stat walks (no directory watches) run off the host's thread. */
  constructor(
    home: string,
    readonly logger: Logger,
    private readonly threadTitle: (threadId: string) => Promise<string | undefined>,
    walkWorker?: string,
  ) {
    this.ledger = new EditLedger({ home, logger, ...(walkWorker ? { walkWorker } : {}) });
    this.provenance = new ProvenanceIndex(this.ledger);
    this.#subs.push(
      vscode.workspace.registerTextDocumentContentProvider(LEDGER_SCHEME, {
        provideTextDocumentContent: (u) => this.#content(u),
      }),
      toVs(this.ledger.onDidRecord((r) => this.#recorded(r))),
      toVs(this.ledger.onConflict((n) => background(this.#warn(n.message, n.threadId), "showing a conflict"))),
      this.#changed,
    );
  }

  /** Tells the views that `threadId`'s ledger changed outside a turn (keep, undo, restore). */
  changed(threadId: string): void {
    this.#changed.fire({ threadId });
  }

  /**
   * A turn another process ran ended (the thread host's, #35): told as a turn recorded here is (the thread's views
   * read its ledger again, its changes go under inline review, the conflict radar looks). The host tells a turn's end
   * once its op record is written, so the last turn op is that turn's; none (a capture that failed): the views
   * read the ledger again.
   */
  async recordedElsewhere(threadId: string): Promise<void> {
    const op = (await this.ledger.readAsync(threadId)).ops.findLast((o) => o.type === "turn" && o.summary);
    if (op) this.#recorded({ threadId, op });
    else this.changed(threadId);
  }

  /** A read-only document with one recorded version of `path` (empty for "absent"). */
  versionUri(path: string, state: FileState | null, label: string): vscode.Uri {
    const q = new URLSearchParams({ label });
    if (state?.id) q.set("id", state.id);
    if (state && !state.stored) q.set("note", describeState(state));
    return vscode.Uri.from({ scheme: LEDGER_SCHEME, path, query: q.toString() });
  }

  /** A recorded version's text, read off the host's thread. */
  async #content(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const note = q.get("note");
    if (note) return `(${note})\n`;
    const id = q.get("id");
    if (!id) return "";
    return (await this.ledger.blobs.getTextAsync(id)) ?? "(this version is no longer in the ledger's blob store)\n";
  }

  /** Conflict radar for agents that write to disk themselves: they changed a file the user has unsaved edits in. */
  #recorded(r: LedgerRecorded): void {
    this.#changed.fire(r);
    for (const f of r.op.files) {
      if (!f.via.includes("disk")) continue;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === f.path);
      if (doc?.isDirty)
        background(
          this.#warn(
            `${r.op.summary?.agent?.name ?? "The agent"} changed ${vscode.workspace.asRelativePath(f.path)} on disk while you have unsaved edits in it: your editor no longer shows what the agent read and wrote. Compare before you save.`,
            r.threadId,
            f.path,
          ),
          "warning about an edit under unsaved changes",
        );
    }
  }

  async #warn(message: string, threadId: string, path?: string): Promise<void> {
    const title = await this.threadTitle(threadId);
    const actions = path ? ["Compare", "Open thread"] : ["Open thread"];
    const pick = await vscode.window.showWarningMessage(`${message}${title ? ` (thread “${title}”)` : ""}`, ...actions);
    if (pick === "Open thread") await vscode.commands.executeCommand("acpThreads.openThread", threadId);
    if (pick === "Compare" && path)
      await vscode.commands.executeCommand("workbench.files.action.compareWithSaved", vscode.Uri.file(path));
  }

  dispose(): void {
    for (const s of this.#subs) s.dispose();
    this.ledger.dispose();
  }
}

const toVs = (d: { dispose(): void }): vscode.Disposable => new vscode.Disposable(() => d.dispose());

/** The document open on `path`, if any. */
export function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path && !d.isClosed);
}

/**
 * Current text: the open editor's when it has unsaved edits, else the disk's; null when the file does not exist
 * (an editor still open on a file a restore deleted keeps its last text, which is not what is there now).
 */
export async function currentText(path: string): Promise<string | null> {
  const doc = openDocument(path);
  if (doc?.isDirty) return doc.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
  } catch {
    return null;
  }
}

const readDisk = (path: string): Promise<Uint8Array | null> =>
  Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.file(path))).catch(() => null);

/** Writes through open editors (replace + save) and the workspace file system otherwise. */
export const editorWriter: FileWriter = {
  async write(path, content) {
    const doc = openDocument(path);
    if (doc) {
      const text = new TextDecoder().decode(content);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${path}`);
      await doc.save();
      // an editor that already showed this text (say, of a file a restore deleted) has nothing to save: the disk
      // may still lack it
      const disk = await readDisk(path);
      if (disk && new TextDecoder().decode(disk) === text) return;
    }
    await vscode.workspace.fs.writeFile(vscode.Uri.file(path), content);
  },
  async remove(path) {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.file(path), { useTrash: false });
    } catch (err) {
      if (!(err instanceof vscode.FileSystemError && err.code === "FileNotFound")) throw err;
    }
  },
};

/**
 * The editor the window's engine restores through (its `editor` port): what the user sees, unsaved edits, and
 * writes over open buffers.
 */
export const editorFiles: NonNullable<LocalEngineOptions["editor"]> = {
  currentText,
  isDirty: (path) => openDocument(path)?.isDirty === true,
  write: (path, content) => editorWriter.write(path, content),
  remove: (path) => editorWriter.remove(path),
};

/**
 * A worktree apply's writer: through the open document when there is one (so its editor, and the inline review
 * that places the applied hunks on its text, see the new text at once), else straight to the disk with the
 * worktree file's mode (a new script stays executable).
 */
export const applyWriter: FileWriter = {
  write: (path, content, mode) =>
    openDocument(path) ? editorWriter.write(path, content) : diskWriter.write(path, content, mode),
  remove: (path) => editorWriter.remove(path),
};

/** Files among `paths` open with unsaved edits (an apply refuses to write over them). */
export const unsavedOf = (paths: readonly string[]): string[] => paths.filter((p) => openDocument(p)?.isDirty);
