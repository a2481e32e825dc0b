/**
 * The NDJSON transport between the engine and an agent process, in place of the SDK's `ndJsonStream`.
 *
 * Why our own: the SDK's stream errors out for good on a line longer than `maxMessageBytes` (the whole
 * connection dies), and we need to tap every line both ways into the protocol log anyway. Here a malformed
 * line or an oversized line is logged and skipped and the session carries on. `session/update`
 * notifications may be handed straight to the engine (`onSessionUpdate`), which keeps them in arrival
 * order and skips the SDK's per-message schema parse and dispatch, the bulk of the cost of a streamed
 * answer (see bench/acp.main.ts).
 */
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import type { ProtocolLog } from "./protocol-log";

/** Default cap for one incoming line. Text chunks are small; a big `session/load` replay line is not. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** An unterminated line this many times over the cap is a flood, not a message: the connection is closed. */
export const FLOOD_FACTOR = 4;
/** Messages queued for the SDK before we stop reading the agent's output (the pipe then fills, the agent waits). */
const QUEUED_MESSAGES = 64;
const NEWLINE = 0x0a;

export interface NdJsonStreamOptions {
  log: ProtocolLog;
  maxMessageBytes?: number;
  /** Receives `session/update` notifications instead of the SDK; return false to let the SDK have it. */
  onSessionUpdate?: (params: unknown) => boolean;
  /** The agent broke the framing for good (a flood without newlines): the stream errors with this and stops reading. */
  onFatal?: (err: Error) => void;
}

export function createNdJsonStream(
  output: NodeJS.WritableStream,
  input: NodeJS.ReadableStream,
  opts: NdJsonStreamOptions,
): Stream {
  const maxBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const { log } = opts;

  // Set once the SDK cancels the stream (connection closed): later agent output is only logged.
  let cancelled = false;
  let failed = false;
  const readable = new ReadableStream<AnyMessage>(
    {
      cancel() {
        cancelled = true;
      },
      // Backpressure: the SDK asks for more; until then a full queue keeps the agent's output unread.
      pull() {
        if (!failed) input.resume();
      },
      start(controller) {
        const fail = (err: Error) => {
          if (failed) return;
          failed = true;
          input.pause();
          input.off("data", onData);
          log.note(err.message);
          opts.onFatal?.(err);
          if (cancelled) return;
          try {
            controller.error(err);
          } catch {
            // already closed
          }
        };
        const splitter = new LineSplitter(
          maxBytes,
          (line) => {
            const text = line.trim();
            if (!text) return;
            let message: unknown;
            try {
              message = JSON.parse(text);
            } catch {
              log.add("recv", text);
              log.note(`skipped a line that is not JSON (${text.length} chars)`);
              return;
            }
            if (!message || typeof message !== "object" || Array.isArray(message)) {
              log.add("recv", text);
              log.note("skipped a line that is not a JSON-RPC message object");
              return;
            }
            // the log's followers (the traffic recorder) get the parsed message: no second parse of the line
            log.add("recv", text, message);
            const msg = message as { method?: unknown; id?: unknown; params?: unknown };
            if (msg.method === "session/update" && msg.id === undefined && opts.onSessionUpdate?.(msg.params)) return;
            if (cancelled) return;
            controller.enqueue(message as AnyMessage);
            if ((controller.desiredSize ?? 1) <= 0) input.pause();
          },
          (size) => log.note(`skipped an incoming line of ${size} bytes (limit ${maxBytes})`),
          (size) =>
            fail(
              new AcpThreadsError(
                "protocol",
                `the agent sent ${size} bytes without a newline (one message may be at most ${maxBytes} bytes): closing the connection`,
                { maxMessageBytes: maxBytes },
              ),
            ),
        );
        function onData(chunk: Buffer | string): void {
          if (!failed) splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        }
        input.on("data", onData);
        input.on("end", () => {
          if (failed) return;
          splitter.flush();
          if (cancelled) return;
          try {
            controller.close();
          } catch {
            // already cancelled by the SDK
          }
        });
        input.on("error", (err) => {
          if (cancelled || failed) return;
          try {
            controller.error(err);
          } catch {
            // already closed
          }
        });
      },
    },
    new CountQueuingStrategy({ highWaterMark: QUEUED_MESSAGES }),
  );

  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      const line = JSON.stringify(message);
      log.add("send", line, message);
      const out = output as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
      if (out.destroyed || out.writableEnded) throw new Error("the agent's input is closed");
      if (!output.write(line + "\n")) {
        // Also give up when the pipe closes: a dead agent never drains, and a hung write would block cancel/close.
        await new Promise<void>((resolve) => {
          const done = () => {
            output.off("drain", done);
            output.off("close", done);
            output.off("error", done);
            resolve();
          };
          output.on("drain", done);
          output.on("close", done);
          output.on("error", done);
        });
      }
    },
  });
  return { readable, writable };
}

/**
 * Splits bytes into lines; a line over the cap is dropped (reported once) without being buffered, and one still
 * unterminated at `FLOOD_FACTOR` times the cap is reported to `onFlood`, after which the splitter stays silent.
 */
export class LineSplitter {
  #parts: Buffer[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #flooded = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (bytes: number) => void,
    private readonly onFlood?: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.#flooded) return;
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      this.#finishLine(chunk, start, nl);
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  flush(): void {
    if (this.#flooded) return;
    if (this.#pendingBytes > 0 || this.#skipping) this.#finishLine(Buffer.alloc(0), 0, 0);
  }

  #append(part: Buffer): void {
    if (this.#skipping) {
      this.#pendingBytes += part.length;
      if (this.onFlood && this.#pendingBytes > this.maxBytes * FLOOD_FACTOR) {
        this.#flooded = true;
        this.onFlood(this.#pendingBytes);
      }
      return;
    }
    if (this.#pendingBytes + part.length > this.maxBytes) {
      this.#skipping = true;
      this.#parts = [];
      this.#pendingBytes += part.length;
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.#parts.push(Buffer.from(part));
    this.#pendingBytes += part.length;
  }

  #finishLine(chunk: Buffer, start: number, end: number): void {
    const total = this.#pendingBytes + (end - start);
    if (this.#skipping || total > this.maxBytes) {
      this.onOversized(total);
    } else if (this.#parts.length === 0) {
      this.onLine(chunk.toString("utf8", start, end));
    } else {
      this.#parts.push(chunk.subarray(start, end));
      this.onLine(Buffer.concat(this.#parts).toString("utf8"));
    }
    this.#parts = [];
    this.#pendingBytes = 0;
    this.#skipping = false;
  }
}
