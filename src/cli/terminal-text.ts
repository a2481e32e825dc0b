/**
 * Text an agent sent, made safe to print on a terminal: no escape sequence, control character or bidi override
 * reaches the terminal, so an agent cannot erase a line, move the cursor, set the title, hide a link (OSC 8) or
 * forge a line the CLI prints itself ("It wants you to open a page on HOST").
 * - ESC and the other C0 controls are shown as their Control Pictures (`\x1b[2K` prints `␛[2K`, `\r` prints `␍`),
 *   so what was tried stays visible and inert; C1 controls (U+0080–U+009F, a terminal may read U+009B as CSI) and
 *   bidi overrides print as `�`.
 * - `agentText` keeps newlines but indents every following line, so an agent's line never starts where the CLI's
 *   own lines start; tabs are kept. `agentLine` is for one line (a title, an option, a host): newlines print `⏎`.
 */

// C0 (except tab and newline), DEL, and C1.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;
// Bidi embeddings/overrides and isolates: they reorder what the terminal shows.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/gu;

function picture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return "\ufffd";
}

function inert(text: string): string {
  return text.replace(CONTROL, picture).replace(BIDI, "\ufffd");
}

/** Agent text on its own lines: every line after the first is indented by `indent`. */
export function agentText(text: string, indent = "  "): string {
  return inert(text).replace(/\n/gu, `\n${indent}`);
}

/** Agent text inside one line of ours: newlines print as `⏎`. */
export function agentLine(text: string): string {
  return inert(text).replace(/\n/gu, "\u23ce");
}
