/**
 * An agent's stderr split into lines for the protocol log and error messages, with bounded memory: the last
 * `maxLines` lines are kept, each cut to `maxLineChars` (marked " …[cut]"), and a line that never ends (an agent
 * flooding stderr without a newline) is cut at that length too, the rest of it dropped until its newline.
 */
export const STDERR_LINE_MAX_CHARS = 8 * 1024;
const CUT = " …[cut]";

export class StderrLines {
  readonly #tail: string[] = [];
  #partial = "";
  /** The current line was already cut: its remaining characters are dropped until the next newline. */
  #skipping = false;

  constructor(
    readonly maxLines: number,
    private readonly onLine: (line: string) => void = () => {},
    readonly maxLineChars: number = STDERR_LINE_MAX_CHARS,
  ) {}

  /** Characters held for the unfinished line (never over `maxLineChars`). */
  get partialLength(): number {
    return this.#partial.length;
  }

  push(data: string): void {
    let start = 0;
    for (;;) {
      const nl = data.indexOf("\n", start);
      const end = nl < 0 ? data.length : nl;
      if (!this.#skipping) this.#partial += data.slice(start, Math.min(end, start + this.maxLineChars + 1));
      if (nl < 0) break;
      if (!this.#skipping) this.#emit(this.#partial.replace(/\r$/, ""));
      this.#partial = "";
      this.#skipping = false;
      start = nl + 1;
    }
    if (this.#partial.length > this.maxLineChars) {
      this.#emit(this.#partial);
      this.#partial = "";
      this.#skipping = true;
    }
  }

  /** Adds a line of our own (a spawn error). */
  add(line: string): void {
    this.#emit(line);
  }

  /** Ends the unfinished line (the process exited). */
  end(): void {
    if (this.#partial) this.#emit(this.#partial);
    this.#partial = "";
  }

  /** The last lines, the unfinished one included. */
  lines(): string[] {
    return (this.#partial ? [...this.#tail, this.#partial] : [...this.#tail]).slice(-this.maxLines);
  }

  #emit(line: string): void {
    const kept = line.length > this.maxLineChars ? line.slice(0, this.maxLineChars) + CUT : line;
    this.onLine(kept);
    this.#tail.push(kept);
    if (this.#tail.length > this.maxLines) this.#tail.splice(0, this.#tail.length - this.maxLines);
  }
}
