/**
 * The handoff brief being edited: an untitled markdown document that carries its own Send — a CodeLens above the
 * first line ("Send to <agent>" · "Cancel") and a Send button in the editor's title bar (context key
 * `acpThreads.handoffBriefActive`) — so it stays at hand as long as the brief is open, not only in a toast that
 * fades. Closing the brief cancels the handoff. The CodeLens provider lives only while a brief is open.
 */
import * as vscode from "vscode";

export type BriefOutcome = { sent: true; text: string } | { sent: false };

interface Pending {
  doc: vscode.TextDocument;
  agentName: string;
  settle(o: BriefOutcome): void;
}

const CONTEXT_KEY = "acpThreads.handoffBriefActive";
export const SEND_COMMAND = "acpThreads.sendHandoff";
export const CANCEL_COMMAND = "acpThreads.cancelHandoff";

class BriefEditors implements vscode.CodeLensProvider {
  readonly #pending = new Map<string, Pending>();
  #subs: vscode.Disposable[] = [];

  /** Opens `text` for editing; resolves when it is sent (with the text it says then) or cancelled. */
  async edit(text: string, agentName: string): Promise<{ doc: vscode.TextDocument; outcome: Promise<BriefOutcome> }> {
    const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: text });
    const outcome = new Promise<BriefOutcome>((settle) => {
      this.#pending.set(doc.uri.toString(), { doc, agentName, settle });
    });
    this.#listen();
    await vscode.window.showTextDocument(doc, { preview: false });
    this.#context();
    return { doc, outcome };
  }

  /** Sends the brief in `target` (a document URI, or the active editor's brief); false when none is open. */
  async send(target?: unknown): Promise<boolean> {
    const p = this.#find(target);
    if (!p) {
      void vscode.window.showInformationMessage("No handoff brief is open here: hand a thread off first.");
      return false;
    }
    if (!p.doc.getText().trim()) {
      void vscode.window.showWarningMessage("The handoff brief is empty; write what the next agent should do.");
      return false;
    }
    const text = p.doc.getText();
    await this.#finish(p, { sent: true, text });
    return true;
  }

  async cancel(target?: unknown): Promise<boolean> {
    const p = this.#find(target);
    if (!p) return false;
    await this.#finish(p, { sent: false });
    return true;
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const p = this.#pending.get(doc.uri.toString());
    if (!p) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const arg = [doc.uri.toString()];
    return [
      new vscode.CodeLens(top, { title: `$(send) Send to ${p.agentName}`, command: SEND_COMMAND, arguments: arg }),
      new vscode.CodeLens(top, { title: "$(close) Cancel handoff", command: CANCEL_COMMAND, arguments: arg }),
    ];
  }

  #find(target: unknown): Pending | undefined {
    const key =
      typeof target === "string"
        ? target
        : target instanceof vscode.Uri
          ? target.toString()
          : vscode.window.activeTextEditor?.document.uri.toString();
    return key ? this.#pending.get(key) : undefined;
  }

  /** Settles the brief, then closes its editor without asking to save it. */
  async #finish(p: Pending, outcome: BriefOutcome): Promise<void> {
    this.#forget(p.doc);
    p.settle(outcome);
    if (p.doc.isClosed) return;
    await vscode.window.showTextDocument(p.doc, { preview: false });
    if (vscode.window.activeTextEditor?.document === p.doc)
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  }

  #forget(doc: vscode.TextDocument): void {
    this.#pending.delete(doc.uri.toString());
    this.#context();
    if (!this.#pending.size) {
      for (const s of this.#subs) s.dispose();
      this.#subs = [];
    }
  }

  #listen(): void {
    if (this.#subs.length) return;
    this.#subs.push(
      vscode.languages.registerCodeLensProvider({ scheme: "untitled" }, this),
      vscode.window.onDidChangeActiveTextEditor(() => this.#context()),
      // closing the brief cancels the handoff
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const p = this.#pending.get(doc.uri.toString());
        if (!p) return;
        this.#forget(doc);
        p.settle({ sent: false });
      }),
    );
  }

  #context(): void {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    void vscode.commands.executeCommand("setContext", CONTEXT_KEY, !!active && this.#pending.has(active));
  }
}

/** The window's briefs being edited (one per handoff in progress). */
export const briefEditors = new BriefEditors();
