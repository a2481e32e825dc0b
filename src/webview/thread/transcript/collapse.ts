/**
 * Long outputs start collapsed: only the last lines show (the end of a command's output is what matters),
 * with a "Show all N lines" button. Which outputs are expanded lives in the render context, so a redraw keeps it.
 */
import { escapeHtml as esc } from "../../shared/escape-html";
import type { RenderContext } from "./context";

export const OUTPUT_LINES = 20;

/** `<pre>` for `text`, collapsed to its last OUTPUT_LINES lines unless `key` is expanded. */
export function collapsiblePre(text: string, key: string, ctx: RenderContext, attrs = ""): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const long = lines.length > OUTPUT_LINES;
  const open = ctx.expanded.has(key);
  const shown = long && !open ? lines.slice(-OUTPUT_LINES) : lines;
  const toggle = long
    ? `<button type="button" class="show-more" data-expand="${esc(key)}" aria-expanded="${open}">${
        open ? "Show less" : `Show all ${lines.length} lines (${lines.length - OUTPUT_LINES} hidden above)`
      }</button>`
    : "";
  return `${long && !open ? toggle : ""}<pre class="term"${attrs}>${esc(shown.join("\n"))}</pre>${long && open ? toggle : ""}`;
}
