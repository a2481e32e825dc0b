/**
 * "Edit and resend" in the prompt box (#37, as Claude Code and Zed do): a prompt of the transcript loaded into the
 * box with its chips, a bar above it ("Editing message 3", what to rewind, Cancel). Sending does the rewind
 * (commands/rewind.ts) with the edited parts; Cancel (or Esc) puts back what the box held before.
 */
import type { RewindMode } from "../../../core/handoff/rewind-point";
import type { RewindEdit, WirePart } from "./protocol";

const MODES: { mode: RewindMode; label: string; title: string }[] = [
  {
    mode: "both",
    label: "Code and conversation",
    title: "Restore the files to before this prompt and fork the conversation here with the edited prompt",
  },
  {
    mode: "conversation",
    label: "Conversation only",
    title: "Fork the conversation here with the edited prompt; the files stay as they are",
  },
  {
    mode: "code",
    label: "Code only",
    title: "Restore the files to before this prompt; the conversation stays as it is (the prompt stays in the box)",
  },
];

export class EditBar {
  readonly #el: HTMLDivElement;
  readonly #label: HTMLSpanElement;
  readonly #mode: HTMLSelectElement;
  #editing: (RewindEdit & { draft: WirePart[] }) | undefined;

  constructor(parent: HTMLElement, before: Element, onCancel: () => void) {
    this.#el = document.createElement("div");
    this.#el.className = "cmp-editing";
    this.#el.hidden = true;
    this.#label = document.createElement("span");
    this.#label.className = "cmp-editing-label";
    this.#el.appendChild(this.#label);
    this.#mode = document.createElement("select");
    this.#mode.id = "rewind-mode";
    this.#mode.setAttribute("aria-label", "What to rewind");
    for (const m of MODES) {
      const o = new Option(m.label, m.mode);
      o.title = m.title;
      this.#mode.add(o);
    }
    this.#el.appendChild(this.#mode);
    const cancel = document.createElement("button");
    cancel.id = "rewind-cancel";
    cancel.className = "secondary";
    cancel.textContent = "Cancel";
    cancel.title = "Stop editing: the box gets back what it held (Esc)";
    cancel.addEventListener("click", onCancel);
    this.#el.appendChild(cancel);
    parent.insertBefore(this.#el, before);
  }

  get editing(): RewindEdit | undefined {
    return this.#editing;
  }

  /** Starts editing prompt `edit.message`; `draft` is what the box held, given back by `stop(true)`. */
  start(edit: RewindEdit, draft: WirePart[]): void {
    this.#editing = { message: edit.message, text: edit.text, draft: this.#editing?.draft ?? draft };
    this.#label.textContent = `Editing message ${edit.message}`;
    this.#mode.value = "both";
    this.#el.hidden = false;
  }

  /** What sending does: the rewind of the edited message with the chosen mode. */
  rewind(): (RewindEdit & { mode: RewindMode }) | undefined {
    const e = this.#editing;
    return e && { message: e.message, text: e.text, mode: this.#mode.value as RewindMode };
  }

  /** Ends the edit; returns the draft the box held before it. */
  stop(): WirePart[] {
    const draft = this.#editing?.draft ?? [];
    this.#editing = undefined;
    this.#el.hidden = true;
    return draft;
  }
}
