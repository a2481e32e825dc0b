/**
 * Opening a chip (in the transcript or the prompt box): a file at its line range, a folder in the explorer, a
 * past thread in its panel, the Problems view, an image kept beside the thread.
 */
import { join } from "node:path";
import * as vscode from "vscode";
import type { ContextRef } from "../../core/model/context";
import { assetsDir } from "../../core/prompt/images";
import { pathExists } from "../../core/util/path-exists";
import { THREAD_URI_PREFIX } from "../../core/prompt/refs";
import { allowedPath } from "./resolve";

export interface OpenContextDeps {
  threadsDir: string;
  /** Opens a past or live thread's panel. */
  openThread(threadId: string): void;
}

export async function openContext(ref: ContextRef, storeThreadId: string | undefined, deps: OpenContextDeps) {
  if (ref.kind === "image") {
    const name = ref.asset ?? ref.thumb;
    const file =
      name && storeThreadId && !/[\\/]/.test(name) ? join(assetsDir(deps.threadsDir, storeThreadId), name) : undefined;
    if (file && (await pathExists(file)))
      return void (await vscode.commands.executeCommand("vscode.open", vscode.Uri.file(file)));
    if (ref.path && allowedPath(ref.path))
      return void (await vscode.commands.executeCommand("vscode.open", vscode.Uri.file(ref.path)));
    return void vscode.window.showInformationMessage(`The image ${ref.label} is not kept anymore.`);
  }
  if (ref.kind === "thread") {
    const id =
      ref.threadId ?? (ref.uri.startsWith(THREAD_URI_PREFIX) ? ref.uri.slice(THREAD_URI_PREFIX.length) : undefined);
    if (id) return deps.openThread(id);
    return void vscode.window.showInformationMessage(
      `${ref.label} was attached from recall; search it in the Recall view.`,
    );
  }
  if (ref.kind === "problems") return void (await vscode.commands.executeCommand("workbench.actions.view.problems"));
  if (!ref.path || !allowedPath(ref.path)) return;
  const uri = vscode.Uri.file(ref.path);
  if (ref.kind === "folder") return void (await vscode.commands.executeCommand("revealInExplorer", uri));
  const doc = await vscode.workspace.openTextDocument(uri);
  const r = ref.range;
  const selection = r
    ? new vscode.Range(r.start - 1, 0, r.end - 1, doc.lineAt(Math.min(r.end, doc.lineCount) - 1).text.length)
    : undefined;
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, ...(selection ? { selection } : {}) });
}
