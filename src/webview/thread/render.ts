/** Entry → HTML for the thread panel. All dynamic text goes through `escapeHtml` or the safe markdown renderer. */
import type { ToolCallState } from "../../core/model/events";
import { diffLines, splitLines } from "../../vscode/text-merge";
import { escapeHtml as esc } from "../shared/escape-html";
import { renderMarkdown } from "./markdown";
import type { Entry } from "./model";

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
};
const icon = (name: string) => `<span class="codicon codicon-${name}"></span>`;
const baseName = (p: string) => p.split(/[\\/]/).pop() ?? p;

/** Strips ANSI escapes so agent terminal output reads as text in HTML. */
// eslint-disable-next-line no-control-regex -- ANSI escapes are control characters by definition
export const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)/g, "");

function renderDiff(path: string, oldText: string | null | undefined, newText: string): string {
  const a = splitLines(oldText ?? "");
  const hunks = diffLines(a, splitLines(newText));
  const rows: string[] = [];
  for (const h of hunks.slice(0, 50)) {
    rows.push(`<div class="hunk">@@ line ${h.start + 1} @@</div>`);
    for (const l of a.slice(h.start, h.end)) rows.push(`<div class="del">- ${esc(l.replace(/\n$/, ""))}</div>`);
    for (const l of h.lines) rows.push(`<div class="add">+ ${esc(l.replace(/\n$/, ""))}</div>`);
  }
  if (hunks.length > 50) rows.push(`<div class="hunk">… ${hunks.length - 50} more hunks</div>`);
  const label = oldText == null ? "new file" : `${hunks.length} change${hunks.length === 1 ? "" : "s"}`;
  return `<div class="diff"><div class="diff-head"><a class="loc" data-path="${esc(path)}">${esc(baseName(path))}</a> <span class="muted">${label}</span></div>${rows.join("")}</div>`;
}

function renderTool(call: ToolCallState, terminals: Map<string, string>): string {
  const locs = call.locations
    .map(
      (l) =>
        `<a class="loc" data-path="${esc(l.path)}" data-line="${l.line ?? ""}">${esc(baseName(l.path))}${l.line ? `:${l.line}` : ""}</a>`,
    )
    .join(" ");
  const body: string[] = [];
  for (const c of call.content) {
    if (c.type === "diff") body.push(renderDiff(c.path, c.oldText, c.newText));
    else if (c.type === "terminal") {
      body.push(
        `<pre class="term" data-terminal="${esc(c.terminalId)}">${esc(stripAnsi(terminals.get(c.terminalId) ?? ""))}</pre>`,
      );
    } else if (c.type === "content" && c.content.type === "text")
      body.push(`<div class="md">${renderMarkdown(c.content.text)}</div>`);
  }
  if (call.terminalOutput) body.push(`<pre class="term">${esc(stripAnsi(call.terminalOutput))}</pre>`);
  return `<div class="tool status-${esc(call.status)}" data-kind="${esc(call.kind)}">
<div class="tool-head">${icon(STATUS_ICON[call.status] ?? "circle-outline")}${icon(KIND_ICON[call.kind] ?? "tools")}<span class="tool-title">${esc(call.title || call.kind)}</span><span class="muted">${esc(call.status.replace("_", " "))}</span> ${locs}</div>
${body.length ? `<div class="tool-body">${body.join("")}</div>` : ""}</div>`;
}

export function renderEntry(e: Entry, terminals: Map<string, string>): string {
  switch (e.kind) {
    case "user":
      return `<div class="msg user"><div class="who">${icon("account")} You</div><div class="md">${renderMarkdown(e.text)}</div></div>`;
    case "agent":
      return `<div class="msg agent"><div class="md">${renderMarkdown(e.text)}</div></div>`;
    case "thought":
      return `<details class="thought"><summary>${icon("lightbulb")} Thinking</summary><div class="md">${renderMarkdown(e.text)}</div></details>`;
    case "tool":
      return renderTool(e.call, terminals);
    case "plan":
      return `<div class="plan"><div class="who">${icon("checklist")} Plan</div><ul>${e.entries
        .map(
          (p) =>
            `<li class="plan-${esc(p.status)}">${icon(p.status === "completed" ? "pass" : p.status === "in_progress" ? "play-circle" : "circle-outline")} ${esc(p.content)}</li>`,
        )
        .join("")}</ul></div>`;
    case "notice":
      return `<div class="notice ${esc(e.severity)}">${icon(e.severity === "error" ? "error" : e.severity === "warning" ? "warning" : "info")} <b>${esc(e.title)}</b>${e.description ? ` ${esc(e.description)}` : ""}</div>`;
    case "error":
      return `<div class="notice error">${icon("error")} ${esc(e.message)}</div>`;
    case "done":
      return `<div class="done muted">${icon("check-all")} turn ended: ${esc(e.stopReason.replace("_", " "))}</div>`;
    case "decision": {
      const d = e.decision;
      const chosen = d.options.find((o) => o.optionId === d.optionId)?.name ?? d.optionId ?? "cancelled";
      return `<div class="decision muted">${icon("shield")} ${esc(d.title)}: ${esc(chosen)} (${esc(d.decidedBy)})</div>`;
    }
    case "prompt": {
      const v = e.view;
      const answered = e.answered !== undefined;
      const buttons = v.options
        .map(
          (o) =>
            `<button class="perm-option ${o.kind.startsWith("allow") ? "allow" : "reject"}" data-request="${esc(v.requestId)}" data-option="${esc(o.optionId)}"${answered ? " disabled" : ""}>${esc(o.name)}</button>`,
        )
        .join("");
      const review =
        v.reviewPath && !answered
          ? `<button class="secondary perm-review" data-request="${esc(v.requestId)}">${icon("diff")} Review</button>`
          : "";
      const state = answered
        ? `<div class="muted">Answered: ${esc(v.options.find((o) => o.optionId === e.answered)?.name ?? "dismissed")}</div>`
        : "";
      return `<div class="permission${answered ? " answered" : ""}" data-request="${esc(v.requestId)}"><div class="who">${icon("shield")} Permission requested</div><div class="perm-title">${esc(v.title)}</div><div class="perm-buttons">${buttons}${review}</div>${state}</div>`;
    }
  }
}
