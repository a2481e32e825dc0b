/**
 * The conversation list: folds host events into the `ThreadModel` and redraws only dirty entries, once per
 * animation frame. Only the last WINDOW entries are in the DOM ("Show earlier" widens the window), so threads
 * with thousands of messages open fast. Each entry is an `article` in a `log` region; redraws keep focus,
 * typed feedback and expanded outputs.
 */
import type { TerminalSnapshot } from "../../../core/model/command-output";
import { ThreadModel, type Entry } from "../model";
import { emptyContext, type RenderContext } from "./context";
import { entryLabel, isTextEntry, renderBlockEntry } from "./entries";
import { highlightWithin } from "./highlight";
import { TextEntryView } from "./text-entry";

export const WINDOW = 200;
const TERMINAL_CAP = 64 * 1024;

/** Called after an entry is drawn: other features decorate entries here (e.g. per-turn summaries). */
export type EntryDecorator = (entry: Entry, el: HTMLElement, index: number) => void;

function replaceKeepingState(el: HTMLElement, html: string): void {
  const active = document.activeElement as HTMLElement | null;
  const focusKey = active && el.contains(active) ? active.dataset.focusKey : undefined;
  const caret = active instanceof HTMLTextAreaElement ? [active.selectionStart, active.selectionEnd] : undefined;
  const scrolls = Array.from(el.querySelectorAll<HTMLElement>("pre.term")).map((p) => p.scrollTop);
  el.innerHTML = html;
  el.querySelectorAll<HTMLElement>("pre.term").forEach((p, i) => (p.scrollTop = scrolls[i] ?? p.scrollHeight));
  if (focusKey) {
    const again = el.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    again?.focus();
    if (again instanceof HTMLTextAreaElement && caret) again.setSelectionRange(caret[0], caret[1]);
  }
}

export class TranscriptView {
  model = new ThreadModel();
  readonly ctx: RenderContext = emptyContext();
  readonly decorators: EntryDecorator[] = [];
  windowStart = 0;
  /** True while a turn runs: the last text entry may still grow. */
  #streaming = false;
  #scheduled = false;
  readonly #nodes = new Map<number, HTMLElement>();
  readonly #texts = new Map<number, TextEntryView>();

  constructor(
    private readonly list: HTMLElement,
    private readonly more: HTMLButtonElement,
    private readonly onFlushed: (v: TranscriptView) => void,
  ) {
    list.setAttribute("role", "log");
    list.setAttribute("aria-label", "Conversation");
  }

  /** A new model (init / reload): the DOM is rebuilt for the last WINDOW entries, or around `focusEvent`. */
  reset(model: ThreadModel, focusEntry?: number): void {
    this.model = model;
    this.windowStart = Math.max(0, model.entries.length - WINDOW);
    if (focusEntry !== undefined) this.windowStart = Math.max(0, Math.min(this.windowStart, focusEntry - 20));
    this.#rebuild();
    if (focusEntry !== undefined && focusEntry >= 0) {
      this.flush(); // the entry must exist to scroll to it
      const el = this.#nodes.get(focusEntry);
      if (el) {
        el.classList.add("focused-hit");
        el.scrollIntoView({ block: "center" });
        setTimeout(() => el.classList.remove("focused-hit"), 4000);
      }
    }
  }

  showEarlier(): void {
    this.windowStart = Math.max(0, this.windowStart - WINDOW);
    this.#rebuild();
  }

  set streaming(on: boolean) {
    if (this.#streaming === on) return;
    this.#streaming = on;
    this.list.setAttribute("aria-busy", String(on));
    const last = this.model.entries.length - 1;
    if (!on && last >= 0) this.model.dirty.add(last); // the last answer is final now
    this.schedule();
  }

  /** A client terminal's output or exit arrived: redraw the cards that show it. */
  terminal(terminalId: string, data: string, exit?: { exitCode: number | null; signal: string | null }): void {
    const prev = this.ctx.terminals.get(terminalId);
    const next: TerminalSnapshot = { text: ((prev?.text ?? "") + data).slice(-TERMINAL_CAP) };
    const ex = exit ?? prev;
    if (ex?.exitCode !== undefined) next.exitCode = ex.exitCode;
    if (ex?.signal !== undefined) next.signal = ex.signal;
    this.ctx.terminals.set(terminalId, next);
    for (const i of this.model.entriesWithTerminal(terminalId)) this.model.dirty.add(i);
    this.schedule();
  }

  /** Redraws entry `i` (after a UI state change such as "Show all"). */
  touch(i: number): void {
    this.model.dirty.add(i);
    this.schedule();
  }

  schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  flush(): void {
    this.#scheduled = false;
    const stick = window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
    const entries = this.model.entries;
    for (const i of [...this.model.dirty].sort((a, b) => a - b)) {
      if (i < this.windowStart || i >= entries.length) continue;
      const e = entries[i];
      let el = this.#nodes.get(i);
      if (!el) {
        el = document.createElement("article");
        el.className = "entry";
        el.dataset.index = String(i);
        el.setAttribute("aria-label", entryLabel(e));
        this.list.appendChild(el); // dirty indexes beyond the DOM are always new, appended in order
        this.#nodes.set(i, el);
      }
      if (isTextEntry(e)) {
        let tv = this.#texts.get(i);
        if (!tv) this.#texts.set(i, (tv = new TextEntryView(el)));
        tv.update(e, i < entries.length - 1 || !this.#streaming);
      } else replaceKeepingState(el, renderBlockEntry(e, this.ctx));
      for (const d of this.decorators) d(e, el, i);
    }
    this.model.dirty.clear();
    this.more.hidden = this.windowStart === 0;
    this.more.textContent = `Show ${Math.min(WINDOW, this.windowStart)} earlier (${this.windowStart} hidden)`;
    highlightWithin(this.list);
    if (stick) window.scrollTo(0, document.body.scrollHeight);
    this.onFlushed(this);
  }

  get inDom(): number {
    return this.#nodes.size;
  }

  #rebuild(): void {
    this.list.textContent = "";
    this.#nodes.clear();
    this.#texts.clear();
    for (let i = this.windowStart; i < this.model.entries.length; i++) this.model.dirty.add(i);
    this.schedule();
  }
}
