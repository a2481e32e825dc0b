/**
 * Notifications for what happens in a thread whose panel is hidden: a permission request (named by the request
 * itself, with the agent's options and Open) and a finished turn (named by the prompt it answered, with Open); and
 * the actions a failed start offers (Install Node runtime, node-runtime.ts).
 * The last few shown are kept (bounded) so the host suite can check what a user was told.
 */
import * as vscode from "vscode";

const KEEP = 20;

export interface Notice {
  severity: "info" | "warning" | "error";
  message: string;
  items: string[];
}

export class Notifier {
  readonly recent: Notice[] = [];
  /** How many notifications were shown in all (`recent` keeps the last few). */
  shown = 0;

  /** The notifications shown after the first `count` of them (`shown` read earlier), as far as they are kept. */
  since(count: number): Notice[] {
    return this.recent.slice(Math.max(0, count - (this.shown - this.recent.length)));
  }

  /** Shows a notification and resolves with the item picked (undefined when dismissed). */
  async show(severity: Notice["severity"], message: string, ...items: string[]): Promise<string | undefined> {
    this.shown++;
    this.recent.push({ severity, message, items });
    if (this.recent.length > KEEP) this.recent.splice(0, this.recent.length - KEEP);
    const show =
      severity === "error"
        ? vscode.window.showErrorMessage
        : severity === "warning"
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    return await show(message, ...items);
  }
}

/**
 * A finished turn's notification (its panel hidden): the agent, the prompt it answered, and why it failed when it
 * did. One wording for the window's sessions and the thread host's.
 */
export function turnFinishedNotice(agent: string, prompt: string, failed: boolean, detail?: string): Notice {
  const what = `${agent} ${failed ? "failed on" : "finished"} ${quotePrompt(prompt)}`;
  return {
    severity: failed ? "warning" : "info",
    message: failed && detail ? `${what}: ${detail}` : what,
    items: ["Open"],
  };
}

/** A prompt as a short quote for a notification: its first line, at most 60 characters. */
export function quotePrompt(text: string | undefined): string {
  const line = (text ?? "").trim().split("\n")[0] ?? "";
  return line.length > 60 ? `“${line.slice(0, 59)}…”` : `“${line}”`;
}
