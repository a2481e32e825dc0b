/**
 * A thread's title from text (a first prompt, an agent's title, a rename): one line, secrets redacted, at most `max`
 * characters (an ellipsis marks a cut). A pure helper: the live thread names a new thread with it, and the window
 * shows every title through it (vscode/thread-title.ts).
 */
import { redactSecrets } from "../redact";

/** The title `text` makes; null for blank text. */
export function titleFrom(text: string, max = 80): string | null {
  const line = redactSecrets(text).replace(/\s+/g, " ").trim();
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
