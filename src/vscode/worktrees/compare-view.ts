/**
 * The best-of-N compare view (#25): a webview panel with one card per candidate, updated live as the candidates
 * run, and the actions that decide them (open the thread, open its diff, apply it, keep it, discard the others).
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { background } from "../../core/util/unexpected";
import type { Hub } from "../hub";
import {
  COMPARE_VIEW_TYPE,
  parseCompareMessage,
  type CandidateRow,
  type CompareHostMessage,
  type CompareWebviewMessage,
} from "../../webview/compare/protocol";
import { webviewHtml, webviewOptions } from "../webview-html";
import { applyToWorkspace, discardWorktreeCommand, reviewWorktree } from "./actions";

const BODY = `<h1>Best of N</h1>
<p id="summary" role="status"></p>
<div id="candidates"></div>`;

export class CompareView implements vscode.Disposable {
  #panel: vscode.WebviewPanel | undefined;
  state: CompareHostMessage;
  readonly #decided = new vscode.EventEmitter<CandidateRow>();
  /** The user applied, kept or discarded a candidate (its row's `outcome`). */
  readonly onDidDecide = this.#decided.event;
  readonly #closes = new vscode.EventEmitter<void>();
  /** Its panel closed (by the user, or disposed). */
  readonly onDidClose = this.#closes.event;
  /** Closed (by the user, or disposed): its webview takes no more messages. */
  #closed = false;

  /**
   * `recordId`: the Best of N's record (a reloaded window's view saves it); `panel`: one VS Code restored; `hidden`:
   * no panel until `show` (a Best of N picked up while the user works elsewhere: its state is kept meanwhile).
   */
  constructor(
    private readonly hub: Hub,
    prompt: string,
    check: string | undefined,
    rows: CandidateRow[],
    opts: { recordId?: string; panel?: vscode.WebviewPanel; hidden?: boolean } = {},
  ) {
    this.state = {
      type: "state",
      prompt,
      running: true,
      rows,
      ...(check ? { check } : {}),
      ...(opts.recordId ? { recordId: opts.recordId } : {}),
    };
    if (opts.panel || !opts.hidden) this.#open(opts.panel);
  }

  /** Its panel (none while hidden). */
  get panel(): vscode.WebviewPanel | undefined {
    return this.#panel;
  }

  /** Shows its panel (opened when hidden so far); a closed view stays closed (false). */
  show(): boolean {
    if (this.#closed) return false;
    if (this.#panel) this.#panel.reveal();
    else this.#open();
    return true;
  }

  #open(restored?: vscode.WebviewPanel): void {
    const uri = this.hub.context.extensionUri;
    const panel =
      restored ??
      vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, "Best of N", vscode.ViewColumn.Active, webviewOptions(uri));
    this.#panel = panel;
    if (restored) panel.webview.options = webviewOptions(uri); // a restored panel: its scripts run again
    panel.webview.html = webviewHtml(panel.webview, uri, {
      script: "compare.js",
      css: "compare.css",
      title: "Best of N",
      body: BODY,
    });
    panel.iconPath = vscode.Uri.joinPath(uri, "media", "icon.svg");
    panel.webview.onDidReceiveMessage((raw) => background(this.#onMessage(raw), "a best-of-N view action"));
    panel.onDidDispose(() => {
      this.#closed = true;
      this.#closes.fire();
    });
  }

  row(label: string): CandidateRow | undefined {
    return this.state.rows.find((r) => r.label === label);
  }

  /** Its state patched and shown; a closed view keeps the state and shows nothing (its webview is gone). */
  update(patch: Partial<CompareHostMessage> = {}): void {
    this.state = { ...this.state, ...patch };
    if (this.#panel && !this.#closed) void this.#panel.webview.postMessage(this.state);
  }

  /** What a view button does (the host tests call it as the webview would; `yes` skips the confirmations). */
  async act(m: CompareWebviewMessage, opts: { yes?: boolean } = {}): Promise<void> {
    if (m.type === "ready") return this.update();
    const row = this.state.rows.find((r) => r.threadId === m.threadId);
    if (!row) return;
    switch (m.type) {
      case "answer":
        // only a request this candidate's thread has pending now (the first answer anywhere wins)
        if (this.hub.broker.pendingFor(m.threadId).some((v) => v.requestId === m.requestId))
          this.hub.broker.answer(m.requestId, m.optionId);
        return;
      case "open":
        return void this.hub.panels.open(m.threadId, { preserveFocus: false });
      case "diff":
        return reviewWorktree(this.hub, m.threadId);
      case "apply": {
        const out = await applyToWorkspace(this.hub, m.threadId, opts);
        if (out?.op) this.#decide(row, "applied");
        return this.update();
      }
      case "keep":
        this.#decide(row, "kept");
        return this.update();
      case "discardOthers": {
        const others = this.state.rows.filter((r) => r !== row && r.threadId && r.outcome !== "discarded");
        if (!others.length) return;
        const go = `Discard ${others.length}`;
        const answer = opts.yes
          ? go
          : await vscode.window.showWarningMessage(
              `Discard the worktrees of ${others.map((r) => r.label).join(", ")}?`,
              {
                modal: true,
                detail: "Their folders are removed; what they changed is lost unless applied. Their threads stay.",
              },
              go,
            );
        if (answer !== go) return;
        const failed: string[] = [];
        for (const r of others) {
          // a candidate is marked discarded only once it is (a failure says why and leaves its worktree listed)
          const done = await discardWorktreeCommand(this.hub, r.threadId, { yes: true }).catch((err: unknown) => {
            failed.push(`${r.label}: ${errorMessage(err)}`);
            return false;
          });
          if (done) this.#decide(r, "discarded");
        }
        if (!row.outcome) this.#decide(row, "kept");
        this.update();
        if (failed.length) void vscode.window.showErrorMessage(`Could not discard ${failed.join("; ")}`);
        return;
      }
    }
  }

  #decide(row: CandidateRow, outcome: NonNullable<CandidateRow["outcome"]>): void {
    row.outcome = outcome;
    this.#decided.fire(row);
  }

  async #onMessage(raw: unknown): Promise<void> {
    const m = parseCompareMessage(raw);
    if (m) await this.act(m);
  }

  /** Closes its panel (a hidden view is closed as if the user closed it). */
  dispose(): void {
    if (this.#panel) this.#panel.dispose();
    else if (!this.#closed) {
      this.#closed = true;
      this.#closes.fire();
    }
    this.#decided.dispose();
    this.#closes.dispose();
  }
}
