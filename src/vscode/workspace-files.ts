/**
 * `WorkspaceFiles` backed by VS Code: agents read unsaved editor text, and writes to an open document go
 * through a minimal WorkspaceEdit computed against what the agent last read, so edits the user typed in the
 * meantime survive. Closed files are written to disk. A write that would clobber the user's own unsaved
 * change to the same lines is refused with a clear error (never an overwrite).
 */
import * as vscode from "vscode";
import { AcpThreadsError } from "../core/errors";
import type { WorkspaceFiles } from "../core/ports";
import { mergeAgentWrite } from "./text-merge";

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

export class EditorWorkspaceFiles implements WorkspaceFiles {
  constructor(private readonly onConflict: (absPath: string, line: number) => void = () => {}) {}

  async readText(absPath: string): Promise<string | undefined> {
    return openDocument(absPath)?.getText() ?? (await readDisk(absPath));
  }

  async writeText(absPath: string, content: string, lastReadText: string | undefined): Promise<void> {
    const doc = openDocument(absPath);
    if (!doc) {
      const uri = vscode.Uri.file(absPath);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, ".."));
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
      return;
    }
    const current = doc.getText();
    // An agent that never read the file saw (at best) the disk text; diffing against that keeps unsaved
    // user edits instead of overwriting them.
    const base = lastReadText ?? (doc.isDirty ? ((await readDisk(absPath)) ?? "") : current);
    const merged = mergeAgentWrite(base, content, current);
    if (!merged.ok) {
      this.onConflict(absPath, merged.conflictLine);
      throw new AcpThreadsError(
        "permission_denied",
        `${absPath} has unsaved changes at line ${merged.conflictLine} that conflict with this write; save or revert them and ask again.`,
      );
    }
    if (merged.edits.length) {
      const edit = new vscode.WorkspaceEdit();
      for (const e of merged.edits)
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
      if (!(await vscode.workspace.applyEdit(edit)))
        throw new AcpThreadsError("protocol", `VS Code refused the edit to ${absPath}`);
    }
    await doc.save();
  }
}
