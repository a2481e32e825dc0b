/**
 * Agent and user text → HTML through markdown-it (CommonMark + GFM tables and strikethrough, task lists),
 * raw HTML off. Nothing in the output can navigate or run script: links carry no `href` (the webview asks
 * the host to open `data-href` web links or `data-path` files), images become links, and fenced code
 * becomes a code block with its toolbar (copy / insert / apply) and a `data-hl` marker that the lazily
 * loaded highlighter picks up.
 */
import MarkdownItCtor, { type MarkdownIt, type RendererRule, type Token } from "markdown-it";
import { escapeHtml } from "../../shared/escape-html";
import { codeBlockHtml } from "./code-block-html";

/** A web link the host may open, a file path (relative or absolute) to open in an editor, or nothing. */
export function classifyHref(href: string): { web: string } | { path: string; line?: number } | undefined {
  const h = href.trim();
  if (/^https?:\/\//i.test(h)) return { web: h };
  if (/^mailto:/i.test(h)) return { web: h };
  if (/^[a-z][a-z0-9+.-]*:/i.test(h) && !/^file:/i.test(h)) return undefined; // javascript:, data:, vscode:, ...
  let p = h.replace(/^file:\/\//i, "");
  if (!p || p.startsWith("#")) return undefined;
  let line: number | undefined;
  const m = /(?:#L|:)(\d+)(?:[-:,]\d+)*$/.exec(p);
  if (m) {
    line = Number(m[1]);
    p = p.slice(0, m.index);
  }
  try {
    p = decodeURIComponent(p);
  } catch {
    /* keep it as written */
  }
  return line ? { path: p, line } : { path: p };
}

function linkAttrs(href: string): string {
  const target = classifyHref(href);
  if (!target) return "";
  if ("web" in target)
    return ` data-href="${escapeHtml(target.web)}" role="link" tabindex="0" title="${escapeHtml(target.web)}"`;
  return ` data-path="${escapeHtml(target.path)}"${target.line ? ` data-line="${target.line}"` : ""} role="link" tabindex="0" class="loc"`;
}

/** GFM task lists: `- [ ] x` / `- [x] x` become disabled checkboxes (the source stays the agent's). */
function taskLists(md: MarkdownIt): void {
  md.core.ruler.after("inline", "task-lists", (state) => {
    const t = state.tokens;
    for (let i = 2; i < t.length; i++) {
      if (t[i].type !== "inline" || t[i - 1].type !== "paragraph_open" || t[i - 2].type !== "list_item_open") continue;
      const m = /^\[([ xX])\]\s/.exec(t[i].content);
      const first = t[i].children?.[0];
      if (!m || !first || first.type !== "text" || !first.content.startsWith(m[0].trimEnd())) continue;
      first.content = first.content.slice(m[0].length - 1).replace(/^\s/, "");
      const box = new state.Token("html_inline", "", 0);
      box.content = `<input type="checkbox" disabled${m[1] === " " ? "" : " checked"} aria-label="${m[1] === " " ? "to do" : "done"}"> `;
      t[i].children!.unshift(box);
      t[i - 2].attrJoin("class", "task");
    }
  });
}

function create(breaks: boolean): MarkdownIt {
  const md = new MarkdownItCtor("default", { html: false, linkify: true, typographer: false, breaks });
  // Our links never navigate, so markdown-it's own href filter would only hide text: let every link through.
  md.validateLink = () => true;
  md.use(taskLists);
  const r = md.renderer.rules;
  r.link_open = (tokens, i) => `<a${linkAttrs(String(tokens[i].attrGet("href") ?? ""))}>`;
  r.image = (tokens, i, _o, env, self) => {
    const tok = tokens[i];
    const alt = self.renderInlineAsText(tok.children ?? [], md.options, env) || "image";
    return `<a${linkAttrs(String(tok.attrGet("src") ?? ""))} class="image-link">🖼 ${escapeHtml(alt)}</a>`;
  };
  // Agent headings sit below the panel's own: # → h3 … so the page outline stays sane.
  const shift = (tag: string) => `h${Math.min(6, Number(tag.slice(1)) + 2)}`;
  r.heading_open = (tokens, i) => `<${shift(tokens[i].tag)}>`;
  r.heading_close = (tokens, i) => `</${shift(tokens[i].tag)}>\n`;
  r.table_open = () => `<div class="table-wrap"><table>\n`;
  r.table_close = () => `</table></div>\n`;
  const fence: RendererRule = (tokens: Token[], i: number) => {
    const tok = tokens[i];
    const info = tok.type === "fence" ? tok.info.trim() : "";
    return codeBlockHtml(tok.content, info);
  };
  r.fence = fence;
  r.code_block = fence;
  return md;
}

/** Agent text: CommonMark line breaks (a single newline is a space). */
export const agentMarkdown = create(false);
/** What a person typed: every newline is kept. */
export const userMarkdown = create(true);

export function renderMarkdown(src: string, md: MarkdownIt = agentMarkdown): string {
  return md.render(src.replace(/\r\n?/g, "\n"));
}
