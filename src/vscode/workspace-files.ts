/**
 * `WorkspaceFiles` backed by VS Code: agents read unsaved editor text, and a write to an open document is merged
 * three ways against what the agent last read (src/core/text), so edits the user typed meanwhile survive. A clean
 * merge is applied as one edit per changed region (the rest of the buffer, its undo history, markers and cursors
 * stay). A true conflict opens a merge view (merge-view.ts); the agent's request waits for the user and is
 * answered with the outcome: done, merged differently (an error telling it to read the file again), or declined.
 * Closed files are written to disk. A write whose `signal` aborted (the thread host no longer waits for it) is
 * applied nowhere: checked right before each apply, with no await between the check and the apply's start.
 */
import { readFile } from "node:fs/promises";
import * as vscode from "vscode";
import { AcpThreadsError } from "../core/errors";
import type { WorkspaceFiles } from "../core/ports";
import { readLineRange, sliceLineRange, type LineRange } from "../core/acp/line-reader";
import { mergeAgentWrite } from "../core/text/agent-write";
import { editsBetween, type TextEdit } from "../core/text/edits";
import { resolveConflict } from "./merge-view";

function openDocument(absPath: string): vscode.TextDocument | undefined {
  const uri = vscode.Uri.file(absPath).toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri && !d.isClosed);
}

async function readDisk(absPath: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(absPath)));
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === "FileNotFound") return undefined;
    throw err;
  }
}

/** Applies character edits of the document's current text as one WorkspaceEdit (one undo step). */
async function applyEdits(doc: vscode.TextDocument, edits: readonly TextEdit[]): Promise<void> {
  if (!edits.length) return;
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits)
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new AcpThreadsError("protocol", `VS Code refused the edit to ${doc.uri.fsPath}`);
}

export class EditorWorkspaceFiles implements WorkspaceFiles {
  constructor(private readonly resolve: typeof resolveConflict = resolveConflict) {}

  async readText(absPath: string): Promise<string | undefined> {
    return openDocument(absPath)?.getText() ?? (await readDisk(absPath));
  }

  /** An open document's (unsaved) text, else the disk read in chunks: a huge file is never loaded whole. */
  async readLines(absPath: string, range: LineRange): Promise<string | undefined> {
    const doc = openDocument(absPath);
    if (doc) return sliceLineRange(absPath, doc.getText(), range);
    return (await readLineRange(absPath, range))?.text;
  }

  async writeText(
    absPath: string,
    content: string,
    lastReadText: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const stillWanted = () => {
      if (signal?.aborted)
        throw new AcpThreadsError("interrupted", `the write to ${absPath} is no longer waited for: not applied`);
    };
    const doc = openDocument(absPath);
    if (!doc) {
      const uri = vscode.Uri.file(absPath);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, ".."));
      stillWanted();
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
      return;
    }
    // An agent that never read the file saw (at best) the disk text; merging against that keeps unsaved
    // user edits instead of overwriting them.
    const base = lastReadText ?? (doc.isDirty ? ((await readDisk(absPath)) ?? "") : doc.getText());
    const current = doc.getText(); // no await between here and the edit: the edits are offsets into this text
    const merged = mergeAgentWrite(base, content, current);
    if (merged.kind === "clean") {
      stillWanted();
      await applyEdits(doc, merged.edits);
      await saveOrThrow(doc, absPath);
      return;
    }
    const where = `near line ${merged.firstConflictLine}`;
    const settled = await this.resolve({
      path: absPath,
      base,
      yours: current,
      agent: merged.agentWins,
      marked: merged.marked,
      agentWins: merged.agentWins,
      userWins: merged.userWins,
      unresolved: merged.unresolved,
      conflicts: merged.conflicts.length,
      firstConflictLine: merged.firstConflictLine,
    });
    const declined = () =>
      new AcpThreadsError(
        "permission_denied",
        `the user declined this write to ${absPath}: it conflicts with their unsaved edits ${where}. The file is unchanged; read it again before writing.`,
      );
    stillWanted();
    if (settled === undefined) throw declined();
    // the user may have typed while resolving: merge their resolution into the buffer as it is now
    let target = settled;
    const now = doc.getText();
    if (now !== current) {
      const again = mergeAgentWrite(current, settled, now);
      if (again.kind === "conflict") throw declined();
      target = again.text;
    }
    await applyEdits(doc, editsBetween(now, target));
    await saveOrThrow(doc, absPath);
    if (settled !== merged.agentWins) {
      throw new AcpThreadsError(
        "permission_denied",
        `the user merged this write to ${absPath} with their unsaved edits and kept their own text where they conflicted (${where}); your other changes were applied. Read the file again before further edits.`,
      );
    }
  }
}

/**
 * Saves the document an agent wrote to; a refused save (say, the file changed on disk) is the agent's error.
 * `save()` also answers false when there was nothing to save: VS Code saves a workspace edit to a file that no
 * editor shows (a merge view took its tab) along with the edit. Then the disk already holds the buffer's text.
 */
async function saveOrThrow(doc: vscode.TextDocument, absPath: string): Promise<void> {
  // A save VS Code already has under way (the one it starts for a workspace edit) also answers false: give it up
  // to half a second to land, then try once more, before telling the agent the write is not on disk.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await doc.save()) return;
    for (let i = 0; i < 10; i++) {
      const onDisk = await readFile(absPath, "utf8").catch(() => undefined);
      if (!doc.isDirty || onDisk === doc.getText()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(
    `the write to ${absPath} is in the open editor, but VS Code could not save it (the file may have changed on disk); the user has to save or revert it. Read the file again before further edits.`,
  );
}
