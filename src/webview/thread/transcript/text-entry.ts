/**
 * DOM for streamed text entries (what you typed, the agent's answer, its thinking). The answer and the
 * thinking grow chunk by chunk: finished markdown blocks are appended once, only the open block is redrawn.
 */
import { renderContextChips } from "../composer/chips";
import type { Entry } from "../model";
import { icon } from "./context";
import { renderMarkdown, userMarkdown } from "./markdown";
import { MarkdownStream } from "./markdown-stream";

export type TextEntry = Entry & { kind: "user" | "agent" | "thought" };

/** Copies the whole message as its source text (markdown), not the rendered HTML. */
const COPY = `<button type="button" class="msg-copy icon-button" title="Copy message" aria-label="Copy message">${icon("copy")}</button>`;
/** A new linked thread with the conversation up to this message (commands/fork.ts on the host). */
const FORK = `<button type="button" class="msg-fork icon-button" title="Fork from here: a new thread with the conversation up to this message" aria-label="Fork from here">${icon("repo-forked")}</button>`;
/** "Edit and resend" a prompt: rewind the code, the conversation or both to before it (commands/rewind.ts). */
const REWIND = `<button type="button" class="msg-rewind icon-button" title="Edit and resend: rewind the code, the conversation or both to before this prompt" aria-label="Edit and resend">${icon("edit")}</button>`;
export class TextEntryView {
  readonly #stream = new MarkdownStream();
  #done: HTMLElement | undefined;
  #tail: HTMLElement | undefined;
  #lastTail = "";
  #userText: string | undefined;

  constructor(readonly root: HTMLElement) {}

  /** Draws `e`; `final` once no more text can arrive (a later entry exists or the turn ended). */
  update(e: TextEntry, final: boolean): void {
    if (e.kind === "user") {
      if (this.#userText === e.text) return;
      this.#userText = e.text;
      const who = e.steered
        ? `${icon("debug-step-into")} You <span class="muted">· steered into the running turn</span>`
        : `${icon("account")} You`;
      this.root.innerHTML = `<div class="msg user${e.steered ? " steered" : ""}">${COPY}${e.steered ? "" : REWIND}${FORK}<div class="who">${who}</div><div class="md">${renderMarkdown(e.text, userMarkdown)}</div>${renderContextChips(e.context)}</div>`;
      return;
    }
    if (!this.#done) {
      this.root.innerHTML =
        e.kind === "agent"
          ? `<div class="msg agent">${COPY}${FORK}<div class="md"><div class="md-done"></div><div class="md-tail"></div></div></div>`
          : `<details class="thought"><summary>${icon("lightbulb")} Thinking</summary><div class="md"><div class="md-done"></div><div class="md-tail"></div></div></details>`;
      this.#done = this.root.querySelector<HTMLElement>(".md-done")!;
      this.#tail = this.root.querySelector<HTMLElement>(".md-tail")!;
    }
    const u = this.#stream.update(e.text, final);
    if (u.reset) this.#done.textContent = "";
    if (u.appended) this.#done.insertAdjacentHTML("beforeend", u.appended);
    if (u.tail !== this.#lastTail) {
      this.#tail!.innerHTML = u.tail;
      this.#lastTail = u.tail;
    }
  }
}
