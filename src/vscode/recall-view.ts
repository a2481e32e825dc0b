/** The "Recall" webview view: search past sessions (ours and imported Codex / Claude Code transcripts). */
import * as vscode from "vscode";
import type { Hub } from "./hub";

export const RECALL_VIEW_ID = "acpThreads.recall";

export class RecallViewProvider implements vscode.WebviewViewProvider {
  constructor(private readonly hub: Hub) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    view.webview.options = { enableScripts: false };
    view.webview.html = `<!DOCTYPE html><html><body><p>Recall search is not available in this build (home ${this.hub.home}).</p></body></html>`;
  }
}

export async function importHistory(_hub: Hub): Promise<void> {
  void vscode.window.showInformationMessage("Importing history is not available in this build.");
}
