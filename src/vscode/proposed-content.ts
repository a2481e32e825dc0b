/**
 * Read-only documents for diff review: `acp-threads-proposed:/<path>?<key>` serves the text an agent
 * proposes, so "Review" can open VS Code's diff editor (current file vs proposed) without touching disk.
 */
import { basename } from "node:path";
import * as vscode from "vscode";

export const PROPOSED_SCHEME = "acp-threads-proposed";

/** What the diff editor's Accept / Reject title buttons do for one proposal. */
export interface ProposalActions {
  accept(): unknown;
  reject(): unknown;
}

export class ProposedContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  #texts = new Map<string, string>();
  readonly #actions = new Map<string, ProposalActions>();
  #seq = 0;
  readonly #reg = vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this);

  /** Stores `text` and returns the URI that shows it; `forget` it when the prompt is answered. */
  put(absPath: string, text: string): vscode.Uri {
    const key = String(++this.#seq);
    this.#texts.set(key, text);
    return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: absPath, query: key });
  }

  forget(uri: vscode.Uri): void {
    this.#texts.delete(uri.query);
    this.#actions.delete(uri.query);
  }

  /**
   * Closes the diff editors showing any of `uris` (a proposal answered elsewhere — the card, a key, the
   * notification — or withdrawn must not stay open looking current), then forgets them.
   */
  async close(uris: readonly vscode.Uri[]): Promise<void> {
    const keys = new Set(uris.filter((u) => u.scheme === PROPOSED_SCHEME).map((u) => u.toString()));
    const shows = (u: vscode.Uri) => keys.has(u.toString());
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) =>
        t.input instanceof vscode.TabInputTextDiff
          ? shows(t.input.modified) || shows(t.input.original)
          : t.input instanceof vscode.TabInputText && shows(t.input.uri),
      );
    for (const uri of uris) this.forget(uri);
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
  }

  /** Gives the proposal shown by `uri` (the diff's right side) its Accept / Reject actions. */
  setActions(uri: vscode.Uri, actions: ProposalActions): void {
    if (uri.scheme === PROPOSED_SCHEME) this.#actions.set(uri.query, actions);
  }

  actionsFor(uri: vscode.Uri | undefined): ProposalActions | undefined {
    return uri?.scheme === PROPOSED_SCHEME ? this.#actions.get(uri.query) : undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.#texts.get(uri.query) ?? "";
  }

  /**
   * Opens the diff editor: left the file as it is now (or empty for a new file), right the proposal.
   * Returns the URIs it stored, to `forget` once the prompt is answered.
   */
  async review(absPath: string, oldText: string | null, newText: string, title: string): Promise<vscode.Uri[]> {
    const right = this.put(absPath, newText);
    const left = oldText === null ? this.put(absPath, "") : vscode.Uri.file(absPath);
    // the tab names the file: a tool call's title alone ("Edit", "apply_patch") does not say which one
    const name = basename(absPath);
    const label = title.includes(name) ? title : `${name} — ${title}`;
    await vscode.commands.executeCommand("vscode.diff", left, right, `${label} (proposed)`, { preview: true });
    return left.scheme === PROPOSED_SCHEME ? [left, right] : [right];
  }

  dispose(): void {
    this.#reg.dispose();
    this.#texts.clear();
    this.#actions.clear();
  }
}
