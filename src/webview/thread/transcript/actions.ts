/**
 * Mouse and keyboard actions inside the conversation: links and file locations, permission answers (buttons,
 * the feedback box, shortcuts 1–9 and R for the oldest waiting request), code block Copy / Insert / Apply,
 * and "Show all" on long outputs. Everything the host must do is posted; the rest is local UI state.
 */
import type { ContextRef } from "../../../core/model/context";
import type { WebviewMessage } from "../protocol";
import type { TranscriptView } from "./view";

const isTyping = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/** The prompt box (contenteditable, marked `empty` by the composer) with nothing typed in it. */
const emptyPromptBox = (t: EventTarget | null) =>
  t instanceof HTMLElement && t.isContentEditable && t.classList.contains("empty");

function entryIndex(el: Element): number | undefined {
  const i = Number(el.closest<HTMLElement>("article[data-index]")?.dataset.index);
  return Number.isInteger(i) ? i : undefined;
}

/** Shows `iconName` on the button for 1.5 s, and `label` as its tooltip and accessible name meanwhile. */
function flash(button: HTMLElement, iconName: string, label?: string): void {
  const icon = button.querySelector(".codicon");
  if (!icon) return;
  const before = { icon: icon.className, title: button.title, aria: button.getAttribute("aria-label") };
  icon.className = `codicon codicon-${iconName}`;
  button.classList.add("flashed");
  if (label) {
    button.title = label;
    button.setAttribute("aria-label", label);
  }
  setTimeout(() => {
    icon.className = before.icon;
    button.classList.remove("flashed");
    button.title = before.title;
    if (before.aria !== null) button.setAttribute("aria-label", before.aria);
  }, 1500);
}

/** `editPrompt`: loads prompt `message` into the prompt box for Edit and resend; false when the panel has none. */
export function wireTranscriptActions(
  list: HTMLElement,
  view: TranscriptView,
  post: (m: WebviewMessage) => void,
  editPrompt?: (message: number, text: string, context?: readonly ContextRef[]) => boolean,
): void {
  const answer = (requestId: string, optionId: string, feedback?: string) => {
    view.ctx.feedback.delete(requestId);
    post(
      feedback ? { type: "permission", requestId, optionId, feedback } : { type: "permission", requestId, optionId },
    );
  };
  const focusAfterFlush = (selector: string) =>
    requestAnimationFrame(() => requestAnimationFrame(() => list.querySelector<HTMLElement>(selector)?.focus()));

  list.addEventListener("click", (e) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>("button, a, [role=link]");
    if (!t) return;
    const block = t.closest<HTMLElement>(".code-block");
    const code = () => block?.querySelector("code")?.textContent ?? "";
    const req = t.dataset.request;
    if (t.classList.contains("perm-option") && req) {
      if (t.dataset.feedback) {
        view.ctx.feedback.set(req, { optionId: t.dataset.option!, text: "" });
        const i = entryIndex(t);
        if (i !== undefined) view.touch(i);
        focusAfterFlush(`textarea[data-feedback-for="${CSS.escape(req)}"]`);
      } else answer(req, t.dataset.option!);
    } else if (t.classList.contains("perm-feedback-send") && req) {
      const fb = view.ctx.feedback.get(req);
      if (fb) answer(req, fb.optionId, fb.text.trim() || undefined);
    } else if (t.classList.contains("perm-feedback-back") && req) {
      view.ctx.feedback.delete(req);
      const i = entryIndex(t);
      if (i !== undefined) view.touch(i);
    } else if (t.classList.contains("perm-review") && req) post({ type: "review", requestId: req });
    else if (t.classList.contains("msg-copy")) {
      const i = entryIndex(t);
      const entry = i === undefined ? undefined : view.model.entries[i];
      if (entry && "text" in entry && typeof entry.text === "string")
        post({ type: "copyText", text: entry.text, what: "message" });
      flash(t, "check", "Message copied");
    } else if (t.classList.contains("msg-fork") || t.classList.contains("msg-rewind")) {
      const i = entryIndex(t);
      const entries = i === undefined ? [] : view.model.entries.slice(0, i + 1);
      const entry = entries.at(-1);
      const n = entries.filter((e) => e.kind === "user" || e.kind === "agent").length;
      const type = t.classList.contains("msg-rewind") ? "rewindFrom" : "forkFrom";
      if (!(entry && "text" in entry && typeof entry.text === "string" && n)) return;
      // Edit and resend edits in the prompt box when the panel offers one (#37), else the host asks for the text
      const context = entry.kind === "user" ? entry.context : undefined;
      if (type === "rewindFrom" && editPrompt?.(n, entry.text, context)) return;
      post({ type, message: n, text: entry.text });
    } else if (t.classList.contains("code-copy")) {
      post({ type: "copyText", text: code() });
      flash(t, "check");
    } else if (t.classList.contains("code-insert")) post({ type: "insertCode", text: code() });
    else if (t.classList.contains("code-apply"))
      post(
        block?.dataset.file
          ? { type: "applyCode", text: code(), path: block.dataset.file }
          : { type: "applyCode", text: code() },
      );
    else if (t.classList.contains("show-more")) {
      const key = t.dataset.expand;
      if (key) {
        if (!view.ctx.expanded.delete(key)) view.ctx.expanded.add(key);
        const i = entryIndex(t);
        if (i !== undefined) view.touch(i);
      } else if (block) {
        const open = block.classList.toggle("collapsed") === false;
        t.setAttribute("aria-expanded", String(open));
        t.textContent = open ? "Show less" : `Show all ${code().split("\n").length} lines`;
      }
    } else if (t.dataset.path) {
      const line = Number(t.dataset.line);
      post({ type: "openLocation", path: t.dataset.path, line: Number.isInteger(line) && line > 0 ? line : undefined });
    } else if (t.dataset.href) post({ type: "openLink", href: t.dataset.href });
  });

  list.addEventListener("input", (e) => {
    const t = e.target as HTMLElement;
    const req = t instanceof HTMLTextAreaElement ? t.dataset.feedbackFor : undefined;
    const fb = req ? view.ctx.feedback.get(req) : undefined;
    if (fb) fb.text = (t as HTMLTextAreaElement).value;
  });

  list.addEventListener("keydown", (e) => {
    const t = e.target as HTMLElement;
    if ((e.key === "Enter" || e.key === " ") && t.getAttribute("role") === "link") {
      e.preventDefault();
      t.click();
    } else if (
      e.key === "Enter" &&
      (e.ctrlKey || e.metaKey) &&
      t instanceof HTMLTextAreaElement &&
      t.dataset.feedbackFor
    ) {
      e.preventDefault();
      list
        .querySelector<HTMLElement>(`.perm-feedback-send[data-request="${CSS.escape(t.dataset.feedbackFor)}"]`)
        ?.click();
    }
  });
}

/**
 * Panel-wide shortcuts for the oldest waiting permission request, active whenever focus is not in a text
 * field or is in the empty prompt box: 1–9 pick an option, R opens the review diff.
 */
export function wirePermissionShortcuts(view: TranscriptView, list: HTMLElement): void {
  window.addEventListener("keydown", (e) => {
    // an EMPTY prompt box does not take the key: "1" answers the waiting request instead of being typed
    if (e.ctrlKey || e.metaKey || e.altKey || (isTyping(e.target) && !emptyPromptBox(e.target))) return;
    const first = view.model.pendingPrompts()[0];
    if (!first) return;
    const card = list.querySelector<HTMLElement>(`.permission[data-request="${CSS.escape(first.view.requestId)}"]`);
    if (!card) return;
    let button: HTMLElement | null = null;
    if (/^[1-9]$/.test(e.key)) button = card.querySelectorAll<HTMLElement>(".perm-option")[Number(e.key) - 1] ?? null;
    else if (e.key === "r" || e.key === "R") button = card.querySelector<HTMLElement>(".perm-review");
    if (!button) return;
    e.preventDefault();
    button.click();
  });
}
