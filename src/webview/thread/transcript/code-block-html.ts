/**
 * A fenced code block as HTML: a small toolbar (language / file, Copy, Insert at cursor, Apply to file) over
 * the escaped code. Highlighting happens later, in the lazily loaded highlighter chunk, for every
 * `code[data-hl]`. Long blocks start collapsed behind "Show all N lines". Pure string building (unit-tested).
 */
import { escapeHtml as esc } from "../../shared/escape-html";

/** Blocks longer than this start collapsed. */
export const COLLAPSE_LINES = 30;

const SHELL = new Set([
  "bash",
  "sh",
  "shell",
  "zsh",
  "fish",
  "console",
  "shellsession",
  "powershell",
  "ps1",
  "pwsh",
  "cmd",
  "bat",
]);
const NOT_CODE = new Set(["", "text", "txt", "plaintext", "plain", "output", "log", "diff", "patch", "mermaid"]);
const EXT_LANG: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  rs: "rust",
  go: "go",
  rb: "ruby",
  java: "java",
  kt: "kotlin",
  cs: "csharp",
  c: "c",
  h: "c",
  cpp: "cpp",
  cc: "cpp",
  hpp: "cpp",
  json: "json",
  yml: "yaml",
  yaml: "yaml",
  toml: "ini",
  md: "markdown",
  css: "css",
  scss: "scss",
  html: "xml",
  xml: "xml",
  sh: "bash",
  sql: "sql",
  php: "php",
  swift: "swift",
  lua: "lua",
};

const looksLikePath = (s: string) => /[/\\]/.test(s) || /^[\w.-]+\.[A-Za-z0-9]{1,8}$/.test(s);

/** Splits a fence info string into a language and an optional file path ("ts src/a.ts", "ts:src/a.ts", "src/a.ts", "ts title=a.ts"). */
export function parseFenceInfo(info: string): { lang: string; path?: string } {
  const words = info.trim().split(/\s+/).filter(Boolean);
  let lang = words[0] ?? "";
  let path: string | undefined;
  const colon = /^([\w#+.-]+):(.+)$/.exec(lang);
  if (colon && looksLikePath(colon[2])) [lang, path] = [colon[1], colon[2]];
  for (const w of words.slice(1)) {
    const kv = /^(?:path|file|title|filename)=["']?([^"']+)["']?$/.exec(w);
    if (kv) path ??= kv[1];
    else if (!path && looksLikePath(w)) path = w;
  }
  if (!path && looksLikePath(lang) && /\./.test(lang)) {
    path = lang;
    lang = EXT_LANG[lang.split(".").pop()!.toLowerCase()] ?? "";
  }
  return path ? { lang: lang.toLowerCase(), path } : { lang: lang.toLowerCase() };
}

const button = (cls: string, iconName: string, label: string) =>
  `<button type="button" class="icon-button ${cls}" title="${esc(label)}" aria-label="${esc(label)}"><span class="codicon codicon-${iconName}" aria-hidden="true"></span></button>`;

export function codeBlockHtml(code: string, info: string): string {
  const { lang, path } = parseFenceInfo(info);
  const text = code.endsWith("\n") ? code.slice(0, -1) : code;
  const lines = text ? text.split("\n").length : 0;
  const applicable = !!path || !(SHELL.has(lang) || NOT_CODE.has(lang));
  const actions = [
    button("code-copy", "copy", "Copy"),
    button("code-insert", "insert", "Insert at cursor"),
    applicable ? button("code-apply", "diff", path ? `Apply to ${path}…` : "Apply to file…") : "",
  ].join("");
  const label = [lang, path].filter(Boolean).join(" · ");
  const long = lines > COLLAPSE_LINES;
  return (
    `<div class="code-block${long ? " collapsible collapsed" : ""}"${path ? ` data-file="${esc(path)}"` : ""} role="group" aria-label="${esc(label ? `Code: ${label}` : "Code")}">` +
    `<div class="code-head"><span class="code-lang">${esc(label)}</span><span class="code-actions">${actions}</span></div>` +
    `<pre><code${lang ? ` data-hl="${esc(lang)}"` : ""}>${esc(text)}</code></pre>` +
    (long ? `<button type="button" class="show-more" aria-expanded="false">Show all ${lines} lines</button>` : "") +
    `</div>\n`
  );
}
