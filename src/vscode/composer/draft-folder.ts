/**
 * The folder a new thread's panel works in (#35). In a multi-root window it starts as the folder of the active text
 * editor when that editor's file is in a workspace folder, else the first folder; the panel's folder picker changes it.
 */
import * as vscode from "vscode";

const workspaceFolders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

/** The one `chosen` when it is a workspace folder, else the first folder. */
export function draftFolder(chosen: string | undefined): string {
  const folders = workspaceFolders();
  return chosen && folders.includes(chosen) ? chosen : (folders[0] ?? process.cwd());
}

/** Whether `folder` is one of the window's workspace folders (a panel's pick is checked against them). */
export const isWorkspaceFolder = (folder: string): boolean => workspaceFolders().includes(folder);

/**
 * The workspace folder of the active text editor's file, if any. Read it before the new thread's panel opens: the
 * panel's webview becomes the active editor then, and `activeTextEditor` is undefined.
 */
export function editorFolder(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc ? vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath : undefined;
}
