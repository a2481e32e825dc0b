/**
 * The thread panel's actions that need no session (thread-panel.ts handles the rest): a code block copied,
 * inserted or applied, a location or link opened, and the turn and message actions, which are commands on the
 * thread's id.
 */
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import type { WebviewMessage } from "../webview/thread/protocol";
import type { CodeActions } from "./code-actions";

const ACTIONS = [
  "copyText",
  "insertCode",
  "applyCode",
  "openLocation",
  "openLink",
  "reviewTurn",
  "restoreTurn",
  "keepTurn",
  "forkFrom",
  "rewindFrom",
  "undoRestore",
] as const;

export type PanelAction = Extract<WebviewMessage, { type: (typeof ACTIONS)[number] }>;

export const isPanelAction = (m: WebviewMessage): m is PanelAction => (ACTIONS as readonly string[]).includes(m.type);

/** Runs the action; `cwd`: the thread's folder ("": the workspace's). */
export async function panelAction(m: PanelAction, threadId: string, code: CodeActions, cwd: string): Promise<void> {
  const folder = () => cwd || (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "/");
  switch (m.type) {
    case "copyText":
      return void (await code.copy(m.text, m.what));
    case "insertCode":
      return void (await code.insert(m.text));
    case "applyCode":
      return void (await code.apply(m.text, m.path, folder()));
    case "openLocation": {
      const line = Math.max(0, (m.line ?? 1) - 1);
      const abs = isAbsolute(m.path) ? m.path : join(folder(), m.path);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
      await vscode.window.showTextDocument(doc, {
        selection: new vscode.Range(line, 0, line, 0),
        viewColumn: vscode.ViewColumn.One,
      });
      return;
    }
    case "openLink":
      return void (await vscode.env.openExternal(vscode.Uri.parse(m.href)));
    case "reviewTurn":
    case "restoreTurn":
    case "keepTurn":
      return void (await vscode.commands.executeCommand(`acpThreads.${m.type}`, threadId, m.turn));
    case "forkFrom":
      return void (await vscode.commands.executeCommand("acpThreads.forkThread", threadId, m.message, m.text));
    case "rewindFrom":
      return void (await vscode.commands.executeCommand("acpThreads.rewindThread", threadId, m.message, m.text));
    case "undoRestore":
      return void (await vscode.commands.executeCommand("acpThreads.restoreTurn", threadId, { op: m.op }));
  }
}
