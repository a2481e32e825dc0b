/**
 * The "Recall" webview view: searches past sessions (our threads plus imported Codex / Claude Code
 * transcripts) with the engine's recall requests, in the engine worker (recall-index.ts). Our own threads are
 * synced before a search (incremental, unchanged files are skipped). Clicking a hit opens our thread at that
 * message, or the transcript at its line.
 */
import { basename } from "node:path";
import * as vscode from "vscode";
import { AcpThreadsError, errorMessage } from "../core/errors";
import { parseRecallMessage } from "../webview/recall/protocol";
import type { RecallHostMessage, RecallWebviewMessage } from "../webview/recall/protocol";
import type { Hub } from "./hub";
import { recordsToEvents } from "../core/thread/record-events";
import { webviewHtml, webviewOptions } from "./webview-html";
import { defaultPlan, historyRoots, importWithProgress } from "./recall/import-history";
import { describeSummaries } from "../core/recall/describe";
import { background } from "../core/util/unexpected";
import { pathExists } from "../core/util/path-exists";

export const RECALL_VIEW_ID = "acpThreads.recall";
const OFFERED_KEY = "acpThreads.importOffered";

const BODY = `<div class="bar" role="search"><input id="q" type="search" placeholder="Search past sessions (words, &quot;phrases&quot;, a | b)" aria-label="Search past sessions"><button id="import" type="button" title="Import Codex and Claude Code history">Import</button></div>
<div class="toggles"><label title="Search every repository, not only this workspace's"><input type="checkbox" id="scope-all"> All repositories</label><label title="Only sessions that contain every word"><input type="checkbox" id="all-terms"> Every word</label></div>
<div id="busy" class="busy muted" role="status" hidden></div>
<div id="results"><div class="muted loading">Loading recent sessions…</div></div>`;

/** Imports our threads and the Codex and Claude Code history in a worker, with progress; cancellable anytime. */
export async function importHistory(hub: Hub): Promise<void> {
  const sums = await importWithProgress(hub, await defaultPlan()).shown;
  hub.recall.imported();
  const cancelled = sums.some((s) => s.cancelled);
  void vscode.window.showInformationMessage(
    cancelled
      ? `Recall import cancelled after ${describeSummaries(sums)}. Import again to continue where it stopped.`
      : `Recall imported ${describeSummaries(sums)}`,
  );
}

/** First activation: offer to import existing history once, when there is some. */
export async function offerImportOnce(hub: Hub): Promise<void> {
  const state = hub.context.globalState;
  if (state.get(OFFERED_KEY)) return;
  const roots = historyRoots();
  const found = await Promise.all([pathExists(roots.codex), pathExists(roots.claude)]);
  // asked again after the look: offered once even when the look took long
  if (!found.includes(true) || state.get(OFFERED_KEY)) return;
  void state.update(OFFERED_KEY, true);
  void vscode.window
    .showInformationMessage(
      "ACP Threads can search your existing Codex and Claude Code sessions. Import them now?",
      "Import",
      "Not now",
    )
    .then((c) => {
      if (c === "Import") void importHistory(hub).then(undefined, (err) => hub.log.logger.error("import failed", err));
    });
}

/**
 * What the view's search box does (also used by the host suite and `@` mentions). Empty query = recent sessions.
 * Our own threads are synced into the index first; `signal` cancels it (a newer query supersedes it).
 */
export async function searchRecall(
  hub: Hub,
  query: string,
  opts: { all: boolean; allTerms: boolean },
  signal?: AbortSignal,
): Promise<RecallHostMessage> {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const scope = opts.all || !cwd ? { global: true } : { cwd };
  const engine = hub.recall.engine();
  if (!query)
    return {
      type: "recent",
      result: await engine.call({ op: "recall.recent", ...scope, sync: true, limit: 20 }, { signal }),
    };
  const search = { op: "recall.search", query, ...scope, sync: true, allTerms: opts.allTerms, limit: 10 } as const;
  return { type: "results", result: await engine.call(search, { signal }) };
}

export class RecallViewProvider implements vscode.WebviewViewProvider {
  constructor(private readonly hub: Hub) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    // the engine worker starts and opens the index while the view loads: its first search does not wait for both
    // (a failure here is left to that search to show)
    background(this.hub.recall.engine().call({ op: "recall.status" }), "opening the recall index", () => undefined);
    const { extensionUri } = this.hub.context;
    view.webview.options = webviewOptions(extensionUri);
    view.webview.html = webviewHtml(view.webview, extensionUri, {
      script: "recall.js",
      css: "recall.css",
      title: "Recall",
      body: BODY,
    });
    const post = (m: RecallHostMessage) => void view.webview.postMessage(m);
    let last: RecallWebviewMessage | undefined;
    /** The search being answered: a newer one cancels it (its answer is never shown). */
    let searching: AbortController | undefined;
    const handle = (m: RecallWebviewMessage | undefined) => {
      if (m?.type !== "search") return this.#handle(m, post);
      searching?.abort();
      const mine = (searching = new AbortController());
      return this.#handle(m, (reply) => mine.signal.aborted || post(reply), mine.signal);
    };
    const subs = [
      view.webview.onDidReceiveMessage((raw) => {
        const m = parseRecallMessage(raw);
        if (m?.type === "search") last = m;
        background(handle(m), "answering the recall view");
      }),
      this.hub.recall.onDidImport(() => background(handle(last), "refreshing recall")),
      // the recent list (empty query) follows new threads: it never says "no past sessions" while this window
      // has just recorded one; redrawn when the view shows again or a session settles (idle, closed)
      view.onDidChangeVisibility(() => {
        if (view.visible && last?.type === "search" && last.query === "") background(handle(last), "refreshing recall");
      }),
      this.hub.live.onDidChange(() => {
        const settled = this.hub.live.all().every((x) => x.status !== "working" && x.status !== "starting");
        if (view.visible && settled && last?.type === "search" && last.query === "")
          background(handle(last), "refreshing recall");
      }),
    ];
    view.onDidDispose(() => subs.forEach((d) => d.dispose()));
  }

  async #handle(
    m: RecallWebviewMessage | undefined,
    post: (m: RecallHostMessage) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    if (!m) return;
    try {
      if (m.type === "search")
        post(await searchRecall(this.hub, m.query, { all: m.scope === "all", allTerms: m.allTerms }, signal));
      else if (m.type === "open") await openRecallHit(this.hub, m.source, m.path, m.line);
      else if (m.type === "import") await importHistory(this.hub);
    } catch (err) {
      if (signal?.aborted && err instanceof AcpThreadsError && err.code === "interrupted") return; // superseded
      post({ type: "error", message: errorMessage(err) });
    }
  }
}

/** Our thread → its panel scrolled to the message; anything else → the transcript file at the line. */
export async function openRecallHit(hub: Hub, source: string, path: string, line: number | null): Promise<void> {
  const threadId = basename(path).replace(/\.jsonl$/, "");
  const thread = source === "acp_threads" ? await hub.threads.readAsync(threadId) : undefined;
  if (thread) {
    const { records } = thread;
    const focus = line ? recordsToEvents(records.slice(0, Math.max(0, line - 1))).length : undefined;
    hub.panels.open(threadId, { focusEvent: focus });
    return;
  }
  const l = Math.max(0, (line ?? 1) - 1);
  await vscode.window.showTextDocument(vscode.Uri.file(path), {
    selection: new vscode.Range(l, 0, l, 0),
    preview: true,
  });
}
