/**
 * The "ACP Threads" output channel. `logger` is what the engine gets (core's Logger interface);
 * `protocol(sessionLabel)` gives a per-session logger whose lines carry the session so the protocol log
 * of one session can be told apart ("Show protocol log").
 */
import { inspect } from "node:util";
import * as vscode from "vscode";
import type { Logger } from "../core/log";

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

  protocol(session: string): Logger {
    const p = session ? `[${session}] ` : "";
    return {
      debug: (m, ...a) => this.channel.debug(p + m + (a.length ? " " + fmt(a) : "")),
      info: (m, ...a) => this.channel.info(p + m + (a.length ? " " + fmt(a) : "")),
      warn: (m, ...a) => this.channel.warn(p + m + (a.length ? " " + fmt(a) : "")),
      error: (m, ...a) => this.channel.error(p + m + (a.length ? " " + fmt(a) : "")),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
