/**
 * A bounded, subscribable log of raw protocol traffic: every JSON-RPC line in both directions plus the
 * agent's stderr. The extension shows it in an Output channel; the CLI writes it to a file on request or
 * when something goes wrong. Bounded by line count and bytes so a chatty agent cannot grow it forever.
 */
import { Emitter, type Disposable } from "../lifecycle";

export type ProtocolDirection = "send" | "recv" | "stderr" | "note";

export interface ProtocolLogEntry {
  /** Milliseconds since the epoch. */
  at: number;
  direction: ProtocolDirection;
  text: string;
  /**
   * The JSON-RPC message `text` is the JSON of, when the transport had it as an object (parsed or about to be
   * sent): given to `onLine` listeners only (never kept in the log), so a follower need not parse the line again.
   * Absent when the line was cut. Listeners must not keep or change it.
   */
  message?: object;
}

export const DEFAULT_PROTOCOL_LOG_LINES = 2000;
export const DEFAULT_PROTOCOL_LOG_BYTES = 4 * 1024 * 1024;
/** A single entry longer than this is cut in the log (the message itself is not affected). */
export const PROTOCOL_LOG_ENTRY_MAX_CHARS = 64 * 1024;

const ARROWS: Record<ProtocolDirection, string> = { send: "->", recv: "<-", stderr: "!!", note: "##" };

export function formatProtocolEntry(entry: ProtocolLogEntry): string {
  return `${new Date(entry.at).toISOString()} ${ARROWS[entry.direction]} ${entry.text}`;
}

/** A viewer of protocol lines with levels (the extension's Output channel): see `protocolLineSink`. */
export interface ProtocolLineViewer {
  /** Whether trace lines are shown now: asked per line, so a level change applies at once. */
  tracing(): boolean;
  trace(line: string): void;
  info(line: string): void;
  warn(line: string): void;
}

/** Notes that say a line or the process went wrong (the others: "agent exited (code 0 …)", "runs with Node …"). */
const WARNING_NOTE = /^(?:skipped |spawn failed)/;

/**
 * A log follower for `viewer`: the traffic itself (both directions) at trace level and formatted only when the
 * viewer shows trace (nobody reads a channel below its level, and a line per message is the streaming path's
 * cost); the agent's stderr at info, the log's notes at info or warn (malformed lines, failed spawns), always.
 */
export function protocolLineSink(viewer: ProtocolLineViewer): (entry: ProtocolLogEntry) => void {
  return (e) => {
    if (e.direction === "send" || e.direction === "recv") {
      if (viewer.tracing()) viewer.trace(formatProtocolEntry(e));
    } else if (e.direction === "note" && WARNING_NOTE.test(e.text)) viewer.warn(formatProtocolEntry(e));
    else viewer.info(formatProtocolEntry(e));
  };
}

export class ProtocolLog implements Disposable {
  readonly #maxLines: number;
  readonly #maxBytes: number;
  // A queue: the entries are `#entries[#head…]` (the lines as they came, formatted only when asked for); dropping
  // the oldest is O(1), the array compacted once half of it is dropped.
  #entries: (ProtocolLogEntry | undefined)[] = [];
  #head = 0;
  #bytes = 0;
  #dropped = 0;
  readonly #onLine = new Emitter<ProtocolLogEntry>();
  /** Fires for every entry as it is added. */
  readonly onLine = this.#onLine.event;

  constructor(opts: { maxLines?: number; maxBytes?: number } = {}) {
    this.#maxLines = Math.max(1, opts.maxLines ?? DEFAULT_PROTOCOL_LOG_LINES);
    this.#maxBytes = Math.max(1, opts.maxBytes ?? DEFAULT_PROTOCOL_LOG_BYTES);
  }

  /** Entries evicted so far because of the caps. */
  get dropped(): number {
    return this.#dropped;
  }

  /** `message`: the object `text` is the JSON of, handed to `onLine` listeners (see ProtocolLogEntry.message). */
  add(direction: ProtocolDirection, text: string, message?: object): void {
    if (text.length > PROTOCOL_LOG_ENTRY_MAX_CHARS) {
      text = `${text.slice(0, PROTOCOL_LOG_ENTRY_MAX_CHARS)}… [${text.length} chars, cut]`;
      message = undefined;
    }
    const entry: ProtocolLogEntry = { at: Date.now(), direction, text };
    this.#entries.push(entry);
    this.#bytes += text.length;
    if (this.#entries.length - this.#head > this.#maxLines) this.#dropOldest();
    while (this.#bytes > this.#maxBytes && this.#entries.length - this.#head > 1) this.#dropOldest();
    try {
      this.#onLine.fire(message ? { ...entry, message } : entry);
    } catch {
      // A broken viewer (e.g. a disposed output channel) must not break the connection that logs to it.
    }
  }

  note(text: string): void {
    this.add("note", text);
  }

  /** Entries, oldest first. */
  entries(): ProtocolLogEntry[] {
    return this.#entries.slice(this.#head) as ProtocolLogEntry[];
  }

  /** Formatted lines, oldest first. */
  lines(): string[] {
    return this.entries().map(formatProtocolEntry);
  }

  /** The last `n` stderr lines (for error messages). */
  stderrTail(n = 20): string[] {
    return this.entries()
      .filter((e) => e.direction === "stderr")
      .slice(-n)
      .map((e) => e.text);
  }

  /** The log as a file's text (a line for dropped entries first); `redact` scrubs each line first. */
  text(redact: (line: string) => string = (l) => l): string {
    const header = this.#dropped ? [`# ${this.#dropped} older entries were dropped`] : [];
    return [...header, ...this.lines().map(redact)].join("\n") + "\n";
  }

  dispose(): void {
    this.#onLine.dispose();
  }

  #dropOldest(): void {
    this.#bytes -= this.#entries[this.#head]!.text.length;
    this.#entries[this.#head++] = undefined;
    this.#dropped++;
    if (this.#head >= 1024 && this.#head * 2 >= this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }
}
