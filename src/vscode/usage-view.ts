/**
 * The Usage view: one webview panel with the usage ledger (tokens and costs agents reported) per day, agent,
 * model or thread over today / 7 / 30 days / all time, a bar chart and a table; rows of threads open them.
 */
import * as vscode from "vscode";
import { parseSince } from "../core/usage/since";
import { errorMessage } from "../core/errors";
import type { Engine, EngineReplies } from "../core/engine/requests";
import {
  parseUsageMessage,
  USAGE_VIEW_TYPE,
  type UsageGroupName,
  type UsageHostMessage,
  type UsageRange,
} from "../webview/usage/protocol";
import { webviewHtml, webviewOptions } from "./webview-html";
import { background } from "../core/util/unexpected";

type UsageReport = EngineReplies["usage.report"];

const BODY = `<h1>Agent usage</h1>
<div class="controls">
  <label>Group by <select id="by"><option value="day">day</option><option value="agent">agent</option><option value="model">model</option><option value="thread">thread</option></select></label>
  <label>Range <select id="range"><option value="today">today</option><option value="7d">last 7 days</option><option value="30d">last 30 days</option><option value="all">all time</option></select></label>
</div>
<p id="summary" role="status"></p>
<div id="chart"></div>
<table id="table"></table>`;

export class UsageView implements vscode.Disposable {
  #panel: vscode.WebviewPanel | undefined;
  #query: { by: UsageGroupName; range: UsageRange } = { by: "day", range: "30d" };
  /** The last report sent (host tests read it). */
  lastReport: UsageReport | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly engine: Engine,
  ) {}

  show(): vscode.WebviewPanel {
    if (this.#panel) {
      this.#panel.reveal();
      background(this.#send(), "refreshing the usage view");
      return this.#panel;
    }
    const uri = this.extensionUri;
    const panel = vscode.window.createWebviewPanel(
      USAGE_VIEW_TYPE,
      "Agent usage",
      vscode.ViewColumn.Active,
      webviewOptions(uri),
    );
    panel.webview.html = webviewHtml(panel.webview, uri, {
      script: "usage.js",
      css: "usage.css",
      title: "Agent usage",
      body: BODY,
    });
    panel.iconPath = vscode.Uri.joinPath(uri, "media", "icon.svg");
    panel.webview.onDidReceiveMessage((raw) => background(this.#onMessage(raw), "handling a usage view message"));
    panel.onDidDispose(() => (this.#panel = undefined));
    this.#panel = panel;
    return panel;
  }

  async report(by: UsageGroupName, range: UsageRange): Promise<UsageReport> {
    return this.engine.call({ op: "usage.report", by, ...(range !== "all" ? { since: parseSince(range) } : {}) });
  }

  async #onMessage(raw: unknown): Promise<void> {
    const m = parseUsageMessage(raw);
    if (!m) return;
    if (m.type === "openThread")
      return void (await vscode.commands.executeCommand("acpThreads.openThread", m.threadId));
    if (m.type === "query") this.#query = { by: m.by, range: m.range };
    await this.#send();
  }

  async #send(): Promise<void> {
    const post = (msg: UsageHostMessage) => void this.#panel?.webview.postMessage(msg);
    try {
      const report = await this.report(this.#query.by, this.#query.range);
      this.lastReport = report;
      post({ type: "report", ...this.#query, report });
    } catch (err) {
      post({ type: "error", message: `Could not read the usage ledger: ${errorMessage(err)}` });
    }
  }

  dispose(): void {
    this.#panel?.dispose();
  }
}
