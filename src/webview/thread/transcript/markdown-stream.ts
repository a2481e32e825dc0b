/**
 * Incremental markdown for streamed answers. Text only grows at the end, and in CommonMark a top-level block
 * that is followed by another top-level block can no longer change (the next block closed it). So each
 * update parses only the text after the last finished block: finished blocks are rendered once and appended,
 * the last (open) block is re-rendered. A 10,000-line answer costs one small parse per frame instead of a
 * full re-render (see bench/thread-render). Known limit: a reference-style link whose definition arrives in a
 * later block than its use stays plain text.
 */
import type { MarkdownIt, Token } from "markdown-it";
import { agentMarkdown } from "./markdown";

export interface StreamUpdate {
  /** The whole output must be replaced (text was not an append of the previous text). */
  reset: boolean;
  /** HTML of blocks that just finished: append it after the earlier finished blocks. */
  appended: string;
  /** HTML of the block still open (replaces the previous tail). */
  tail: string;
}

/** Character offset where line `line` (0-based) of `text` starts. */
function lineOffset(text: string, line: number): number {
  let at = 0;
  for (let i = 0; i < line; i++) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at;
}

export class MarkdownStream {
  #text = "";
  /** Offset up to which blocks are finished and rendered. */
  #stable = 0;
  #tail = "";
  #final = false;

  constructor(private readonly md: MarkdownIt = agentMarkdown) {}

  /** Offset of the first character not yet in a finished block (tests, diagnostics). */
  get stableOffset(): number {
    return this.#stable;
  }

  update(text: string, final = false): StreamUpdate {
    const src = text.replace(/\r\n?/g, "\n");
    let reset = false;
    if (this.#final && src === this.#text) return { reset: false, appended: "", tail: this.#tail };
    if (this.#final || !src.startsWith(this.#text.slice(0, this.#stable)) || src.length < this.#stable) {
      reset = true;
      this.#stable = 0;
      this.#final = false;
    }
    this.#text = src;
    const rest = src.slice(this.#stable);
    const env = {};
    const tokens = this.md.parse(rest, env);
    const starts: number[] = [];
    tokens.forEach((t, i) => t.level === 0 && t.nesting !== -1 && t.map && starts.push(i));
    const cut = final ? tokens.length : (starts.at(-1) ?? 0);
    const render = (ts: Token[]) => (ts.length ? this.md.renderer.render(ts, this.md.options, env) : "");
    const appended = render(tokens.slice(0, cut));
    if (cut > 0) this.#stable += final ? rest.length : lineOffset(rest, tokens[cut].map![0]);
    const tail = render(tokens.slice(cut));
    this.#tail = tail;
    this.#final = final;
    return { reset, appended, tail };
  }

  /** The tail as last rendered. */
  get tail(): string {
    return this.#tail;
  }
}
