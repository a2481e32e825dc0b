/**
 * A tool call's card: status and kind, a workspace-relative title, its locations, then what it produced —
 * command output with exit code and duration (from whichever source the agent used), diffs, text — and the
 * permission request about it, if any.
 */
import { commandOutput } from "../../../core/model/command-output";
import type { ToolCallState } from "../../../core/model/events";
import { diffLines } from "../../../core/text/line-diff";
import { splitLines } from "../../../core/text/lines";
import { escapeHtml as esc } from "../../shared/escape-html";
import type { Entry } from "../model";
import { collapsiblePre } from "./collapse";
import { icon, type RenderContext } from "./context";
import { renderMarkdown } from "./markdown";
import { baseName, relPath, relativizeText } from "./paths";
import { renderDecision, renderPermission } from "./permission-card";

const KIND_ICON: Record<string, string> = {
  read: "file",
  edit: "edit",
  delete: "trash",
  move: "arrow-right",
  search: "search",
  execute: "terminal",
  think: "lightbulb",
  fetch: "globe",
  switch_mode: "arrow-swap",
  other: "tools",
};
const STATUS_ICON: Record<string, string> = {
  pending: "circle-outline",
  in_progress: "loading codicon-modifier-spin",
  completed: "pass",
  failed: "error",
  cancelled: "circle-slash",
  unfinished: "question",
};
const STATUS_WORD: Record<string, string> = {
  pending: "pending",
  in_progress: "running",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
  unfinished: "no end reported",
};

// eslint-disable-next-line no-control-regex -- ANSI escapes are control characters by definition
export const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)/g, "");

/** "0.4 s", "12 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms / 10) / 100)} s`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const MAX_HUNKS = 50;

function renderDiff(
  path: string,
  oldText: string | null | undefined,
  newText: string,
  ctx: RenderContext,
  title: string,
): string {
  const a = splitLines(oldText ?? "");
  const hunks = diffLines(a, splitLines(newText));
  const rows: string[] = [];
  for (const h of hunks.slice(0, MAX_HUNKS)) {
    rows.push(`<div class="hunk">@@ line ${h.start + 1} @@</div>`);
    for (const l of a.slice(h.start, h.end)) rows.push(`<div class="del">- ${esc(l.replace(/\n$/, ""))}</div>`);
    for (const l of h.lines) rows.push(`<div class="add">+ ${esc(l.replace(/\n$/, ""))}</div>`);
  }
  if (hunks.length > MAX_HUNKS) rows.push(`<div class="hunk">… ${hunks.length - MAX_HUNKS} more hunks</div>`);
  const label = oldText == null ? "new file" : `${hunks.length} change${hunks.length === 1 ? "" : "s"}`;
  const shown = relPath(path, ctx.cwd);
  const name = title.includes(shown)
    ? ""
    : `<a class="loc" role="link" tabindex="0" data-path="${esc(path)}">${esc(shown)}</a> `;
  return `<div class="diff"><div class="diff-head">${name}<span class="muted">${label}</span></div>${rows.join("")}</div>`;
}

interface Badge {
  html: string;
}

function commandSection(call: ToolCallState, ctx: RenderContext, badges: Badge[]): string {
  const term = call.content.find((c) => c.type === "terminal");
  const terminal = term?.type === "terminal" ? ctx.terminals.get(term.terminalId) : undefined;
  const out = commandOutput(call, terminal);
  if (out.exitCode !== undefined && out.exitCode !== null) {
    const ok = out.exitCode === 0;
    badges.push({
      html: `<span class="badge ${ok ? "ok" : "bad"}" title="exit code ${out.exitCode}">exit ${out.exitCode}</span>`,
    });
  } else if (out.signal) badges.push({ html: `<span class="badge bad">killed by ${esc(out.signal)}</span>` });
  if (out.durationMs !== undefined)
    badges.push({ html: `<span class="muted duration" title="duration">${formatDuration(out.durationMs)}</span>` });
  const parts: string[] = [];
  if (out.command && out.command !== call.title)
    parts.push(`<div class="cmd-line"><span class="muted">$</span> ${esc(out.command)}</div>`);
  const text = out.output === undefined ? undefined : stripAnsi(out.output).replace(/\r\n?/g, "\n");
  if (text && text.trim()) parts.push(collapsiblePre(text, `${call.toolCallId}:out`, ctx));
  else if (call.status === "pending" || call.status === "in_progress")
    parts.push(`<div class="muted no-output">Running…</div>`);
  else if (out.output !== undefined) parts.push(`<div class="muted no-output">No output</div>`);
  else parts.push(`<div class="muted no-output">The agent did not send this command's output</div>`);
  return `<div class="cmd">${parts.join("")}</div>`;
}

/**
 * The calls a subagent made inside this one: collapsed to one line counting them by status; expanded, each is a
 * card of its own (with its own status). Whether it is open lives in `ctx.expanded`, so a redraw keeps it.
 */
function subagentSection(id: string, children: ToolCallState[], ctx: RenderContext): string {
  const key = `${id}:subagent`;
  const open = ctx.expanded.has(key);
  const counts = new Map<string, number>();
  for (const c of children) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const summary = [...counts]
    .map(
      ([st, n]) =>
        `<span class="sub-count">${icon(STATUS_ICON[st] ?? "circle-outline")} ${n} ${esc(STATUS_WORD[st] ?? st)}</span>`,
    )
    .join(" ");
  const n = `${children.length} tool call${children.length === 1 ? "" : "s"}`;
  const toggle = `<button type="button" class="show-more subagent-toggle" data-expand="${esc(key)}" aria-expanded="${open}">${icon(open ? "chevron-down" : "chevron-right")} Subagent: ${n}</button>`;
  const calls = open
    ? `<div class="subagent-calls" role="group" aria-label="Subagent tool calls">${children.map((c) => renderTool({ kind: "tool", call: c, version: 0 }, ctx)).join("")}</div>`
    : "";
  return `<div class="subagent">${toggle} ${summary}${calls}</div>`;
}

export function renderTool(e: Entry & { kind: "tool" }, ctx: RenderContext): string {
  const call = e.call;
  const title = relativizeText(call.title || call.kind, ctx.cwd);
  const link = (l: { path: string; line?: number | null }, text: string) =>
    `<a class="loc" role="link" tabindex="0" data-path="${esc(l.path)}" data-line="${l.line ?? ""}" title="Open ${esc(relPath(l.path, ctx.cwd))}">${esc(text)}</a>`;
  // A path the title already names becomes a link inside the title instead of being shown twice.
  let titleHtml = esc(title);
  const rest = call.locations.filter((l) => {
    const shown = relPath(l.path, ctx.cwd);
    if (call.kind === "execute" && shown === ".") return false;
    const at = shown.length > 1 ? title.indexOf(shown) : -1;
    if (at < 0 || titleHtml !== esc(title)) return true;
    titleHtml = esc(title.slice(0, at)) + link(l, shown) + esc(title.slice(at + shown.length));
    return !!l.line;
  });
  const locs = rest.map((l) => link(l, `${baseName(relPath(l.path, ctx.cwd))}${l.line ? `:${l.line}` : ""}`)).join(" ");
  const badges: Badge[] = [];
  const body: string[] = [];
  if (call.kind === "execute") body.push(commandSection(call, ctx, badges));
  call.content.forEach((c, i) => {
    if (c.type === "diff") body.push(renderDiff(c.path, c.oldText, c.newText, ctx, title));
    else if (c.type === "content" && c.content.type === "text" && call.kind !== "execute")
      // a file's text keeps its line breaks (as markdown its lines ran together); fenced output stays markdown
      body.push(
        call.kind === "read" && !/^\s*(```|~~~)/.test(c.content.text)
          ? collapsiblePre(c.content.text, `${call.toolCallId}:read:${i}`, ctx)
          : `<div class="md">${renderMarkdown(c.content.text)}</div>`,
      );
  });
  if (call.kind !== "execute" && call.terminalOutput)
    body.push(collapsiblePre(stripAnsi(call.terminalOutput), `${call.toolCallId}:meta`, ctx));
  if (e.children?.length) body.push(subagentSection(call.toolCallId, e.children, ctx));
  const status = STATUS_WORD[call.status] ?? call.status;
  const perm = e.prompt ? renderPermission(e.prompt, title, ctx) : e.decision ? renderDecision(e.decision) : "";
  const waiting = e.prompt && e.prompt.answered === undefined;
  return `<div class="tool status-${esc(call.status)}${waiting ? " waiting" : ""}" data-kind="${esc(call.kind)}" role="group" aria-label="${esc(`Tool call: ${title}, ${status}`)}">
<div class="tool-head">${icon(STATUS_ICON[call.status] ?? "circle-outline", status)}${icon(KIND_ICON[call.kind] ?? "tools")}<span class="tool-title">${titleHtml}</span>${badges.map((b) => b.html).join("")}${locs ? `<span class="locs">${locs}</span>` : ""}</div>
${body.length ? `<div class="tool-body">${body.join("")}</div>` : ""}${perm}</div>`;
}
