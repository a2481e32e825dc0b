/**
 * The prompt box: a plain-text contenteditable in which mentions are chips (non-editable spans, deleted as a
 * whole). It reads back as text and context parts in order, finds the `@query` / `/command` token at the caret,
 * and replaces it with a chip or a command.
 */
import type { ContextRef } from "../../../core/model/context";
import { chipElement } from "./chips";
import type { WirePart } from "./protocol";

interface ChipData {
  ref: ContextRef;
  content?: string;
}

export interface CaretToken {
  trigger: "@" | "/";
  query: string;
  node: Text;
  start: number;
  end: number;
}

export class PromptBox {
  readonly el: HTMLDivElement;
  readonly #chips = new WeakMap<HTMLElement, ChipData>();

  constructor(parent: HTMLElement, placeholder: string) {
    this.el = document.createElement("div");
    this.el.className = "cmp-box";
    this.el.id = "input";
    // plaintext-only: typing and pasting never bring markup in; chips are inserted by us.
    this.el.setAttribute("contenteditable", "plaintext-only");
    if (this.el.contentEditable !== "plaintext-only") this.el.contentEditable = "true";
    this.el.setAttribute("role", "textbox");
    this.el.setAttribute("aria-multiline", "true");
    this.el.setAttribute("aria-label", "Prompt");
    this.el.dataset.placeholder = placeholder;
    this.el.spellcheck = true;
    parent.appendChild(this.el);
    this.el.addEventListener("input", () => this.#syncEmpty());
    this.#syncEmpty();
  }

  set placeholder(text: string) {
    this.el.dataset.placeholder = text;
  }

  #syncEmpty(): void {
    this.el.classList.toggle("empty", this.isEmpty());
  }

  isEmpty(): boolean {
    return !this.el.querySelector(".chip") && !(this.el.textContent ?? "").trim();
  }

  focus(): void {
    this.el.focus();
    this.#caretToEnd();
  }

  /** Text and context parts in order; leading/trailing blank space trimmed. */
  parts(): WirePart[] {
    const parts: WirePart[] = [];
    let text = "";
    const flush = () => {
      if (text) parts.push({ type: "text", text });
      text = "";
    };
    const walk = (node: Node) => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) text += (child as Text).data;
        else if (child instanceof HTMLElement) {
          const chip = this.#chips.get(child);
          if (chip) {
            flush();
            parts.push({
              type: "context",
              ref: chip.ref,
              ...(chip.content !== undefined ? { content: chip.content } : {}),
            });
          } else if (child.tagName === "BR") text += "\n";
          else {
            if ((child.tagName === "DIV" || child.tagName === "P") && text && !text.endsWith("\n")) text += "\n";
            walk(child);
          }
        }
      }
    };
    walk(this.el);
    flush();
    const first = parts[0];
    if (first?.type === "text") first.text = first.text.replace(/^\s+/, "");
    const last = parts[parts.length - 1];
    if (last?.type === "text") last.text = last.text.replace(/\s+$/, "");
    return parts.filter((p) => p.type !== "text" || p.text);
  }

  /** Replaces the content with these parts (history, a queued prompt taken back, a restored draft). */
  setParts(parts: readonly WirePart[]): void {
    this.el.textContent = "";
    for (const p of parts) {
      if (p.type === "text") this.el.appendChild(document.createTextNode(p.text));
      else if (p.type === "context") this.el.appendChild(this.#chip(p.ref, p.content));
    }
    this.#syncEmpty();
    this.focus();
  }

  clear(): void {
    this.el.textContent = "";
    this.#syncEmpty();
  }

  #chip(ref: ContextRef, content?: string): HTMLSpanElement {
    const el = chipElement(ref);
    this.#chips.set(el, { ref, ...(content !== undefined ? { content } : {}) });
    return el;
  }

  /** The `@query` (anywhere, after a space) or `/command` (at the very start) token ending at the caret. */
  tokenAtCaret(): CaretToken | undefined {
    const sel = document.getSelection();
    if (!sel || !sel.isCollapsed || !sel.anchorNode || sel.anchorNode.nodeType !== Node.TEXT_NODE) return undefined;
    const node = sel.anchorNode as Text;
    if (!this.el.contains(node)) return undefined;
    const before = node.data.slice(0, sel.anchorOffset);
    const at = /(^|[\s(])@([^\s@]{0,100})$/.exec(before);
    if (at) {
      const start = before.length - at[2]!.length - 1;
      return { trigger: "@", query: at[2]!, node, start, end: sel.anchorOffset };
    }
    const slash = /^\/([\w:.-]{0,100})$/.exec(before);
    if (slash && this.#isFirstText(node))
      return { trigger: "/", query: slash[1]!, node, start: 0, end: sel.anchorOffset };
    return undefined;
  }

  #isFirstText(node: Text): boolean {
    for (let n: Node | null = node.previousSibling; n; n = n.previousSibling)
      if (n.nodeType !== Node.TEXT_NODE || (n as Text).data.trim()) return false;
    return node.parentNode === this.el;
  }

  /** Replaces the token with a chip and a space, caret after them. */
  insertChip(ref: ContextRef, content: string | undefined, token?: CaretToken): void {
    const chip = this.#chip(ref, content);
    const space = document.createTextNode(" ");
    const range = document.createRange();
    if (token && token.node.isConnected) {
      range.setStart(token.node, token.start);
      range.setEnd(token.node, Math.min(token.end, token.node.length));
      range.deleteContents();
    } else {
      const sel = document.getSelection();
      const current = sel?.rangeCount ? sel.getRangeAt(0) : undefined;
      if (current && this.el.contains(current.endContainer)) range.setStart(current.endContainer, current.endOffset);
      else {
        range.selectNodeContents(this.el);
        range.collapse(false);
      }
    }
    range.insertNode(space);
    range.insertNode(chip);
    this.#caretAfter(space);
    this.#syncEmpty();
  }

  /** Replaces the token with plain text (a slash command), caret after it. */
  replaceToken(token: CaretToken, text: string): void {
    token.node.replaceData(token.start, token.end - token.start, text);
    const sel = document.getSelection();
    sel?.collapse(token.node, token.start + text.length);
    this.#syncEmpty();
  }

  /** Inserts plain text at the caret (a line break with Shift+Enter, pasted text). */
  insertText(text: string): void {
    if (!document.execCommand("insertText", false, text)) {
      const sel = document.getSelection();
      if (!sel?.rangeCount) return;
      const node = document.createTextNode(text);
      sel.getRangeAt(0).insertNode(node);
      this.#caretAfter(node);
    }
    this.#syncEmpty();
  }

  caretAtStart(): boolean {
    return this.#caretOffsets()?.before === "";
  }

  caretAtEnd(): boolean {
    return this.#caretOffsets()?.after === "";
  }

  /** Text before and after the caret (chips count as one character). */
  #caretOffsets(): { before: string; after: string } | undefined {
    const sel = document.getSelection();
    if (!sel?.rangeCount || !this.el.contains(sel.anchorNode))
      return this.isEmpty() ? { before: "", after: "" } : undefined;
    const r = sel.getRangeAt(0);
    const pre = document.createRange();
    pre.selectNodeContents(this.el);
    pre.setEnd(r.startContainer, r.startOffset);
    const post = document.createRange();
    post.selectNodeContents(this.el);
    post.setStart(r.endContainer, r.endOffset);
    const text = (range: Range) => {
      const frag = range.cloneContents();
      return (frag.textContent ?? "").replace(/\s+$/, "") + (frag.querySelector?.(".chip") ? "#" : "");
    };
    return { before: text(pre).replace(/^\s+/, ""), after: text(post).trim() };
  }

  #caretAfter(node: Node): void {
    const sel = document.getSelection();
    const r = document.createRange();
    r.setStartAfter(node);
    r.collapse(true);
    sel?.removeAllRanges();
    sel?.addRange(r);
  }

  #caretToEnd(): void {
    const sel = document.getSelection();
    const r = document.createRange();
    r.selectNodeContents(this.el);
    r.collapse(false);
    sel?.removeAllRanges();
    sel?.addRange(r);
  }
}
