/**
 * The suggestion list of the prompt box (`@` context, `/` commands): grouped rows, keyboard (Up/Down,
 * Enter/Tab, Escape) and mouse, ARIA listbox semantics tied to the box with aria-activedescendant.
 */
import type { CompletionGroup, CompletionItem } from "./protocol";

const GROUP_TITLE: Record<CompletionGroup, string> = {
  selection: "Selection",
  problems: "Problems",
  editors: "Open editors",
  files: "Files and folders",
  symbols: "Symbols",
  threads: "Past threads",
  commands: "Commands",
};
const GROUP_ORDER: CompletionGroup[] = ["commands", "selection", "problems", "editors", "files", "symbols", "threads"];

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

function highlight(label: string, match: number[] | undefined): string {
  if (!match?.length) return esc(label);
  const at = new Set(match);
  let out = "";
  for (let i = 0; i < label.length; i++) out += at.has(i) ? `<b>${esc(label[i]!)}</b>` : esc(label[i]!);
  return out;
}

export class SuggestPopup {
  readonly el: HTMLDivElement;
  #items: CompletionItem[] = [];
  #active = 0;
  #loading = false;

  constructor(
    parent: HTMLElement,
    private readonly owner: HTMLElement,
    private readonly onPick: (item: CompletionItem) => void,
  ) {
    this.el = document.createElement("div");
    this.el.className = "cmp-popup";
    this.el.id = "cmp-popup";
    this.el.setAttribute("role", "listbox");
    this.el.setAttribute("aria-label", "Suggestions");
    this.el.hidden = true;
    parent.appendChild(this.el);
    owner.setAttribute("aria-controls", this.el.id);
    owner.setAttribute("aria-autocomplete", "list");
    // mousedown, not click: the box must keep focus (and its caret) while a row is picked
    this.el.addEventListener("mousedown", (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>("[data-index]");
      if (!row) return;
      e.preventDefault();
      const item = this.#items[Number(row.dataset.index)];
      if (item) this.onPick(item);
    });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Shows items (grouped, in the fixed group order); `loading` adds a "searching…" row at the end. */
  show(items: CompletionItem[], loading: boolean): void {
    const byGroup = GROUP_ORDER.flatMap((g) => items.filter((i) => i.group === g));
    const keep = this.#items[this.#active];
    this.#items = byGroup;
    this.#loading = loading;
    const again = keep ? byGroup.findIndex((i) => i.label === keep.label && i.group === keep.group) : -1;
    this.#active = again >= 0 ? again : 0;
    this.#render();
  }

  hide(): void {
    this.el.hidden = true;
    this.#items = [];
    this.owner.setAttribute("aria-expanded", "false");
    this.owner.removeAttribute("aria-activedescendant");
  }

  /** Handles list keys while open; returns true when the key was used. */
  key(e: KeyboardEvent): boolean {
    if (!this.open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!this.#items.length) return true;
      const n = this.#items.length;
      this.#active = (this.#active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      this.#render();
      return true;
    }
    if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey) {
      const item = this.#items[this.#active];
      if (!item) return false;
      this.onPick(item);
      return true;
    }
    if (e.key === "Escape") {
      this.hide();
      return true;
    }
    return false;
  }

  #render(): void {
    const rows: string[] = [];
    let group: CompletionGroup | undefined;
    this.#items.forEach((item, i) => {
      if (item.group !== group) {
        group = item.group;
        rows.push(`<div class="cmp-group" role="presentation">${GROUP_TITLE[group]}</div>`);
      }
      const active = i === this.#active;
      rows.push(
        `<div class="cmp-item${active ? " active" : ""}" id="cmp-opt-${i}" role="option" aria-selected="${active}" data-index="${i}">` +
          `<span class="codicon codicon-${esc(item.icon)}"></span><span class="cmp-label">${highlight(item.label, item.match)}</span>` +
          (item.detail ? `<span class="cmp-detail">${esc(item.detail)}</span>` : "") +
          `</div>`,
      );
    });
    if (this.#loading) rows.push(`<div class="cmp-group cmp-loading" role="presentation">searching…</div>`);
    else if (!this.#items.length) rows.push(`<div class="cmp-group" role="presentation">no matches</div>`);
    this.el.innerHTML = rows.join("");
    this.el.hidden = false;
    this.owner.setAttribute("aria-expanded", "true");
    if (this.#items.length) {
      this.owner.setAttribute("aria-activedescendant", `cmp-opt-${this.#active}`);
      this.el.querySelector(".cmp-item.active")?.scrollIntoView({ block: "nearest" });
    } else this.owner.removeAttribute("aria-activedescendant");
  }
}
