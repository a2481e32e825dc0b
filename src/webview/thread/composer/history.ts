/**
 * Up/Down recall of the thread's earlier prompts (including those before a resume), like a shell: Up walks
 * back from the newest, Down walks forward and finally restores what was being typed. Pure (no DOM).
 */
import type { ContextRef } from "../../../core/model/context";
import type { WirePart } from "./protocol";

/** A recorded prompt back into parts: each `@label` of its refs (in order) becomes its chip again. */
export function partsFromTranscript(text: string, refs: readonly ContextRef[] = []): WirePart[] {
  const parts: WirePart[] = [];
  let rest = text;
  for (const ref of refs) {
    if (ref.kind === "image") continue; // images are not recalled (their bytes are not in the transcript)
    const at = rest.indexOf(`@${ref.label}`);
    if (at < 0) continue;
    if (at > 0) parts.push({ type: "text", text: rest.slice(0, at) });
    parts.push({ type: "context", ref: { ...ref, sent: undefined } });
    rest = rest.slice(at + ref.label.length + 1);
  }
  if (rest) parts.push({ type: "text", text: rest });
  return parts;
}

const same = (a: WirePart[], b: WirePart[]) => JSON.stringify(a) === JSON.stringify(b);

export class PromptHistory {
  #entries: WirePart[][] = [];
  /** Index being shown while browsing; `#entries.length` = not browsing. */
  #at = 0;
  #draft: WirePart[] = [];

  reset(): void {
    this.#entries = [];
    this.#at = 0;
  }

  add(parts: WirePart[]): void {
    const clean = parts.filter((p) => p.type !== "image");
    if (!clean.length) return;
    const browsing = this.#at < this.#entries.length;
    if (!same(this.#entries[this.#entries.length - 1] ?? [], clean)) this.#entries.push(clean);
    if (!browsing) this.#at = this.#entries.length;
  }

  get browsing(): boolean {
    return this.#at < this.#entries.length;
  }

  /** The previous prompt (saving `current` as the draft when browsing starts), or undefined at the oldest. */
  prev(current: WirePart[]): WirePart[] | undefined {
    if (this.#at === 0) return undefined;
    if (!this.browsing) this.#draft = current;
    return this.#entries[--this.#at];
  }

  /** The next prompt, the saved draft after the newest, or undefined when not browsing. */
  next(): WirePart[] | undefined {
    if (!this.browsing) return undefined;
    this.#at++;
    return this.browsing ? this.#entries[this.#at] : this.#draft;
  }

  /** Sending or editing ends browsing. */
  stop(): void {
    this.#at = this.#entries.length;
  }
}
