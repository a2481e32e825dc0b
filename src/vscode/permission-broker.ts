/**
 * Answers agents' permission requests through a person. Each live thread gets a `PermissionAsker`; a
 * request shows inline in that thread's panel with the agent's own options. When the panel is hidden (or
 * not open) a notification offers the same options and the status bar says which session waits.
 */
import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import type { PermissionAsker, PermissionPrompt } from "../core/ports";
import type { PermissionView } from "../webview/thread/protocol";
import { Notifier } from "./notifier";
import { TOAST_ALLOW, TOAST_DENY, TOAST_OPEN, toastMessage, allowDeny } from "./permission-toast";
import type { ProposedContent } from "./proposed-content";
import { background } from "../core/util/unexpected";

interface Pending {
  threadId: string;
  label: string;
  view: PermissionView;
  prompt: PermissionPrompt;
  /** Proposed-content documents opened by "Review": their diff editors close when the prompt is answered. */
  reviewed: vscode.Uri[];
  /** A notification was raised for it (once: hiding the panel again does not repeat it). */
  notified?: boolean;
  resolve(optionId: string | null): void;
}

export interface PermissionSurface {
  /** Shows the prompt inline; returns false when the thread's panel is not visible. */
  showInline(threadId: string, view: PermissionView): boolean;
  /** `by`: who answered, when another client of the thread host did (shown as text on the card). */
  resolved(threadId: string, requestId: string, optionId: string | null, by?: string): void;
  reveal(threadId: string): void;
}

export class PermissionBroker implements vscode.Disposable {
  readonly #pending = new Map<string, Pending>();
  /** The card each answered prompt was shown as: a host's later word on who answered first still reaches it. */
  readonly #answered = new WeakMap<PermissionPrompt, { threadId: string; requestId: string }>();
  /** Who gave each prompt's answer (an option, not a cancel): this window, or the client of the thread host that did. */
  readonly #answeredBy = new WeakMap<PermissionPrompt, string>();
  readonly #status = vscode.window.createStatusBarItem("acpThreads.permission", vscode.StatusBarAlignment.Left, 100);
  readonly #changed = new vscode.EventEmitter<string>();
  /** Fires the thread id whose set of pending requests changed. */
  readonly onDidChange = this.#changed.event;
  surface: PermissionSurface | undefined;

  /**
   * `window`: this window's name (as the thread host names it to its other clients, and api/questions.ts in the
   * `answered` events): who answered a request its card, keys, notification or diff answered.
   */
  constructor(
    readonly proposed: ProposedContent,
    readonly window: string,
    readonly notifier: Notifier = new Notifier(),
  ) {
    this.#status.name = "ACP Threads permission requests";
    this.#status.command = "acpThreads.showPendingPermission";
  }

  askerFor(threadId: string, label: () => string): PermissionAsker {
    return { ask: (prompt) => this.#ask(threadId, label(), prompt), answeredBy: (p) => this.#answeredBy.get(p) };
  }

  pendingFor(threadId: string): PermissionView[] {
    return [...this.#pending.values()].filter((p) => p.threadId === threadId).map((p) => p.view);
  }

  hasPending(threadId: string): boolean {
    return this.pendingFor(threadId).length > 0;
  }

  #ask(threadId: string, label: string, prompt: PermissionPrompt): Promise<string | null> {
    if (prompt.signal.aborted) return Promise.resolve(null);
    // a thread host's question keeps its id (the events' needs_input names it), unless a card has it already
    const requestId = prompt.requestId && !this.#pending.has(prompt.requestId) ? prompt.requestId : randomUUID();
    const tc = prompt.request.toolCall;
    const view: PermissionView = {
      requestId,
      toolCallId: tc.toolCallId,
      title: tc.title ?? "Permission requested",
      kind: tc.kind ?? "other",
      options: prompt.request.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
      reviewPath: prompt.proposed?.path,
      ...(prompt.outside?.length ? { outside: prompt.outside } : {}),
    };
    return new Promise((resolve) => {
      const onAbort = () => this.answer(requestId, null);
      prompt.signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(requestId, {
        threadId,
        label,
        view,
        prompt,
        reviewed: [],
        resolve: (id) => {
          prompt.signal.removeEventListener("abort", onAbort);
          resolve(id);
        },
      });
      this.#refreshStatus();
      this.#changed.fire(threadId);
      if (!this.surface?.showInline(threadId, view))
        background(this.#notify(requestId), "notifying a permission request");
    });
  }

  /**
   * The request was answered elsewhere (another client of the thread host; `optionId` null: the turn was
   * cancelled): it closes here and the card says who answered. A card already answered here (its answer lost the
   * race: the host refused it) is shown again with the answer that won and who gave it.
   */
  settledElsewhere(prompt: PermissionPrompt, optionId: string | null, by: string): void {
    for (const [requestId, p] of this.#pending)
      if (p.prompt === prompt) return void this.answer(requestId, optionId, by);
    const card = this.#answered.get(prompt);
    if (!card) return;
    if (optionId !== null) this.#answeredBy.set(prompt, by);
    this.surface?.resolved(card.threadId, card.requestId, optionId, by);
  }

  /** Called by the panel, the notification or a cancel. Unknown ids are ignored (already answered). */
  answer(requestId: string, optionId: string | null, by?: string): boolean {
    const p = this.#pending.get(requestId);
    if (!p) return false;
    if (optionId !== null && !p.view.options.some((o) => o.optionId === optionId)) return false;
    this.#pending.delete(requestId);
    this.#answered.set(p.prompt, { threadId: p.threadId, requestId });
    if (optionId !== null) this.#answeredBy.set(p.prompt, by ?? this.window);
    // the Review diff goes with the request, however it was answered (card, keys, notification, cancel)
    background(this.proposed.close(p.reviewed), "closing a permission's proposal diff");
    p.resolve(optionId);
    this.surface?.resolved(p.threadId, requestId, optionId, by);
    this.#refreshStatus();
    this.#changed.fire(p.threadId);
    return true;
  }

  /** "Review": VS Code's diff editor with the file as it is vs the agent's proposal. */
  async review(requestId: string): Promise<void> {
    const p = this.#pending.get(requestId);
    const proposal = p?.prompt.proposed;
    if (!proposal) return;
    const uris = await this.proposed.review(proposal.path, proposal.oldText, proposal.newText, p.view.title);
    // answered while the diff opened: it closes at once
    if (!this.#pending.has(requestId)) return void (await this.proposed.close(uris));
    p.reviewed.push(...uris);
    const { allow, deny: reject } = allowDeny(p.view.options);
    // The diff editor's Accept / Reject buttons answer the request without going back to the panel.
    this.proposed.setActions(uris[uris.length - 1], {
      accept: () => allow && this.answer(requestId, allow.optionId),
      reject: () => this.answer(requestId, reject?.optionId ?? null),
    });
  }

  /**
   * The thread's panel was hidden or closed: requests it showed inline, still unanswered, are notified now (a user
   * who closes the panel while the agent waits is told, not left with the status bar alone).
   */
  panelHidden(threadId: string): void {
    for (const [requestId, p] of this.#pending)
      if (p.threadId === threadId && !p.notified) background(this.#notify(requestId), "notifying a permission request");
  }

  /** Status bar click: reveal the first waiting thread and show its prompt there. */
  showFirst(): void {
    const first = this.#pending.values().next().value as Pending | undefined;
    if (!first) return void this.notifier.show("info", "No agent is waiting for permission.");
    this.surface?.reveal(first.threadId);
  }

  /**
   * The request itself names the notification (not the thread's first prompt): "Codex asks: Run `npm test`", with
   * the file or command and an "outside the workspace" mark; Allow / Deny / Open only (permission-toast.ts).
   */
  async #notify(requestId: string): Promise<void> {
    const p = this.#pending.get(requestId);
    if (!p || p.notified) return;
    p.notified = true;
    const { allow, deny } = allowDeny(p.view.options);
    const items = [...(allow ? [TOAST_ALLOW] : []), ...(deny ? [TOAST_DENY] : []), TOAST_OPEN];
    const choice = await this.notifier.show("info", toastMessage(p.label, p.view, p.prompt), ...items);
    if (!this.#pending.has(requestId) || choice === undefined) return;
    if (choice === TOAST_OPEN) return this.surface?.reveal(p.threadId);
    const opt = choice === TOAST_ALLOW ? allow : deny;
    if (opt) this.answer(requestId, opt.optionId);
  }

  #refreshStatus(): void {
    const waiting = [...this.#pending.values()];
    if (!waiting.length) return this.#status.hide();
    const labels = [...new Set(waiting.map((p) => p.label))];
    this.#status.text = `$(shield) ${labels[0]}${labels.length > 1 ? ` +${labels.length - 1}` : ""} waits for permission`;
    this.#status.tooltip = waiting.map((p) => `${p.label}: ${p.view.title}`).join("\n");
    this.#status.backgroundColor = new vscode.ThemeColor("statusBarItem.warningBackground");
    this.#status.show();
  }

  dispose(): void {
    for (const id of [...this.#pending.keys()]) this.answer(id, null);
    this.#status.dispose();
    this.#changed.dispose();
  }
}
