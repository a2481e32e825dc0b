/**
 * The "ACP Threads" output channel. `logger` is what the engine gets (core's Logger interface);
 * `protocol(sessionLabel)` gives a per-session logger whose lines carry the session so the protocol log
 * of one session can be told apart. Its `protocolLine` follows the session's protocol log: the traffic goes to
 * the channel at Trace level only, formatted only when the channel's level is Trace (#24: a line per message
 * sent to the workbench cost the streaming path); stderr and notes at their level as before.
 */
import { inspect } from "node:util";
import * as vscode from "vscode";
import { protocolLineSink, type ProtocolLogEntry } from "../core/acp/protocol-log";
import type { Logger } from "../core/log";

/** A session's logger, which also takes the lines of its protocol log. */
export interface SessionLogger extends Logger {
  protocolLine(entry: ProtocolLogEntry): void;
}

/** The protocol-line follower of `logger` when it is a session logger of the channel. */
export function protocolLineOf(logger: Logger | undefined): ((entry: ProtocolLogEntry) => void) | undefined {
  return logger && "protocolLine" in logger ? (logger as SessionLogger).protocolLine : undefined;
}

const fmt = (args: unknown[]) =>
  args
    .map((a) =>
      a instanceof Error
        ? (a.stack ?? a.message)
        : typeof a === "string"
          ? a
          : inspect(a, { depth: 4, breakLength: 200 }),
    )
    .join(" ");

export class ExtensionLog implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel("ACP Threads", { log: true });
  readonly logger: Logger = this.protocol("");

  protocol(session: string): SessionLogger {
    const p = session ? `[${session}] ` : "";
    return {
      debug: (m, ...a) => this.channel.debug(p + m + (a.length ? " " + fmt(a) : "")),
      info: (m, ...a) => this.channel.info(p + m + (a.length ? " " + fmt(a) : "")),
      warn: (m, ...a) => this.channel.warn(p + m + (a.length ? " " + fmt(a) : "")),
      error: (m, ...a) => this.channel.error(p + m + (a.length ? " " + fmt(a) : "")),
      protocolLine: protocolLineSink({
        tracing: () => this.channel.logLevel === vscode.LogLevel.Trace,
        trace: (line) => this.channel.trace(p + line),
        info: (line) => this.channel.info(p + line),
        warn: (line) => this.channel.warn(p + line),
      }),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
