/**
 * Thread panels: one webview panel per thread (`Map<threadId, panel>`, see thread-panel.ts), restored after
 * reload by a serializer that re-reads the thread; the last active one is "the focused thread". Also the inline
 * surface of the permission broker.
 */
import * as vscode from "vscode";
import { THREAD_VIEW_TYPE } from "../webview/thread/protocol";
import type { PermissionView, RenderedView } from "../webview/thread/protocol";
import { CodeActions } from "./code-actions";
import type { PermissionSurface } from "./permission-broker";
import { ThreadPanel, type ThreadPanelDeps } from "./thread-panel";
import { displayTitle } from "./thread-title";
import { webviewOptions } from "./webview-html";

export type { PastThread, TerminalOutputEvent, ThreadPanelDeps } from "./thread-panel";

export class ThreadPanels implements PermissionSurface, vscode.WebviewPanelSerializer, vscode.Disposable {
  readonly #panels = new Map<string, ThreadPanel>();
  #lastActive: string | undefined;
  readonly #activeChanged = new vscode.EventEmitter<void>();
  /** The thread panel active last changed (the status bar's usage follows the focused thread). */
  readonly onDidChangeActive = this.#activeChanged.event;
  readonly #reg: vscode.Disposable;
  /** Copy / Insert at cursor / Apply to file for the panels' code blocks. */
  readonly code: CodeActions;

  constructor(private readonly deps: ThreadPanelDeps) {
    this.#reg = vscode.window.registerWebviewPanelSerializer(THREAD_VIEW_TYPE, this);
    this.code = new CodeActions(deps.broker.proposed);
  }

  /** Opens (or reveals) the panel of a thread; `focusEvent` scrolls a past thread to that event. */
  open(threadId: string, opts: { preserveFocus?: boolean; focusEvent?: number } = {}): vscode.WebviewPanel {
    const existing = this.#panels.get(threadId);
    if (existing) {
      existing.panel.reveal(undefined, opts.preserveFocus);
      if (opts.focusEvent !== undefined) this.#panels.get(threadId)?.focus(opts.focusEvent);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      THREAD_VIEW_TYPE,
      "Thread",
      { viewColumn: this.threadColumn() ?? vscode.ViewColumn.Beside, preserveFocus: opts.preserveFocus },
      {
        ...webviewOptions(this.deps.extensionUri),
        retainContextWhenHidden: true,
      },
    );
    this.#attach(threadId, panel, opts.focusEvent);
    return panel;
  }

  /**
   * The editor group thread panels live in: the one of the thread panel active last, else of any open one.
   * A new thread opens there as a tab (one group for threads, not a new column per thread, issue #27).
   */
  threadColumn(): vscode.ViewColumn | undefined {
    const last = this.#lastActive ? this.#panels.get(this.#lastActive)?.panel.viewColumn : undefined;
    return last ?? [...this.#panels.values()].map((tp) => tp.panel.viewColumn).find((c) => c !== undefined);
  }

  /** Re-renders the panel of `threadId`, if one is open (see ThreadPanel.refresh). */
  refresh(threadId: string): void {
    this.#panels.get(threadId)?.refresh();
  }

  /** The thread's open panel object (the host suite checks that a closed one is let go). */
  panelOf(threadId: string): ThreadPanel | undefined {
    return this.#panels.get(threadId);
  }

  get(threadId: string): vscode.WebviewPanel | undefined {
    return this.#panels.get(threadId)?.panel;
  }

  rendered(threadId: string): RenderedView | undefined {
    return this.#panels.get(threadId)?.rendered;
  }

  /** The title and usage figure the thread's panel header shows (sent last), with the tab's title. */
  shown(threadId: string): (ThreadPanel["shown"] & { tab: string }) | undefined {
    const tp = this.#panels.get(threadId);
    return tp && { ...tp.shown, tab: tp.panel.title };
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const { threadId, draftFolder } = (state ?? {}) as { threadId?: unknown; draftFolder?: unknown };
    if (typeof threadId !== "string") return panel.dispose();
    // a new thread's panel comes back in the folder it was in (a workspace folder still, or it is not used)
    this.#attach(threadId, panel, undefined, typeof draftFolder === "string" ? draftFolder : undefined);
  }

  /** The thread panel that was active last and is still open ("the focused thread" of context menus). */
  lastActive(): string | undefined {
    return this.#lastActive && this.#panels.has(this.#lastActive) ? this.#lastActive : undefined;
  }

  #attach(threadId: string, panel: vscode.WebviewPanel, focusEvent?: number, draftFolder?: string): void {
    const tp = new ThreadPanel(threadId, panel, this.deps, this.code, focusEvent, draftFolder);
    this.#panels.set(threadId, tp);
    if (panel.active) this.#setActive(threadId);
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.#setActive(threadId);
      if (!e.webviewPanel.visible) this.deps.broker.panelHidden(threadId);
    });
    panel.onDidDispose(() => {
      tp.dispose();
      if (this.#panels.get(threadId) === tp) this.#panels.delete(threadId);
      this.deps.broker.panelHidden(threadId);
      if (this.#lastActive === threadId) this.#activeChanged.fire();
    });
  }

  #setActive(threadId: string): void {
    if (this.#lastActive === threadId) return;
    this.#lastActive = threadId;
    this.#activeChanged.fire();
  }

  /** True when the thread's panel is open and visible (not a hidden tab). */
  isVisible(threadId: string): boolean {
    return !!this.#panels.get(threadId)?.panel.visible;
  }

  showInline(threadId: string, view: PermissionView): boolean {
    const tp = this.#panels.get(threadId);
    tp?.post({ type: "permission", prompt: view });
    return !!tp?.panel.visible;
  }

  resolved(threadId: string, requestId: string, optionId: string | null, by?: string): void {
    this.#panels.get(threadId)?.post({ type: "permissionResolved", requestId, optionId, ...(by ? { by } : {}) });
  }

  reveal(threadId: string): void {
    this.open(threadId);
  }

  /** Shows a new title in the thread's open panel (after a rename elsewhere). */
  retitle(threadId: string, title: string): void {
    const tp = this.#panels.get(threadId);
    if (!tp) return;
    tp.panel.title = displayTitle(title);
    tp.post({ type: "title", title: displayTitle(title) });
  }

  dispose(): void {
    this.code.dispose();
    this.#reg.dispose();
    for (const tp of this.#panels.values()) tp.panel.dispose();
    this.#panels.clear();
    this.#activeChanged.dispose();
  }
}
