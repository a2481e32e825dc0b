/**
 * Usage view webview: a bar chart (SVG, tokens per row; the cost next to it) and a table of the usage ledger,
 * grouped by day, agent, model or thread over a chosen range. Plain DOM, strict CSP (no inline styles).
 */
import type { UsageReport, UsageRow } from "../../core/usage/usage-query";
import { formatContext, formatCosts, formatTokens } from "../../core/usage/format";
import { $, bridge } from "../shared/host";
import type { UsageGroupName, UsageHostMessage, UsageRange, UsageWebviewMessage } from "./protocol";

const vscode = bridge<UsageWebviewMessage>();
const by = $<HTMLSelectElement>("by");
const range = $<HTMLSelectElement>("range");
const chart = $<HTMLDivElement>("chart");
const table = $<HTMLTableElement>("table");
const summary = $<HTMLParagraphElement>("summary");
const SVG = "http://www.w3.org/2000/svg";

function cell(tag: "td" | "th", text: string, cls?: string): HTMLTableCellElement {
  const c = document.createElement(tag);
  c.textContent = text;
  if (cls) c.className = cls;
  return c;
}

function rowCells(r: Omit<UsageRow, "key" | "label">): string[] {
  return [
    String(r.turns),
    r.turns ? formatTokens(r.inputTokens) : "",
    r.turns ? formatTokens(r.outputTokens) : "",
    r.cachedReadTokens || r.cachedWriteTokens
      ? `${formatTokens(r.cachedReadTokens)}/${formatTokens(r.cachedWriteTokens)}`
      : "",
    r.turns ? formatTokens(r.totalTokens) : "",
    formatCosts(r.costs),
    formatContext(r.contextUsed, r.contextSize),
  ];
}

function renderChart(report: UsageReport): void {
  chart.replaceChildren();
  const rows = report.by === "day" ? [...report.rows].reverse() : report.rows.slice(0, 20);
  const max = Math.max(1, ...rows.map((r) => r.totalTokens));
  const barH = 18;
  const gap = 6;
  const labelW = 170;
  const width = 560;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${rows.length * (barH + gap)}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Tokens per ${report.by}`);
  rows.forEach((r, i) => {
    const y = i * (barH + gap);
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", "0");
    label.setAttribute("y", String(y + barH - 5));
    label.setAttribute("class", "chart-label");
    label.textContent = r.label.length > 24 ? `${r.label.slice(0, 23)}…` : r.label;
    const bar = document.createElementNS(SVG, "rect");
    const w = Math.max(r.totalTokens ? 2 : 0, ((width - labelW - 120) * r.totalTokens) / max);
    bar.setAttribute("x", String(labelW));
    bar.setAttribute("y", String(y));
    bar.setAttribute("width", String(w));
    bar.setAttribute("height", String(barH));
    bar.setAttribute("class", "chart-bar");
    const value = document.createElementNS(SVG, "text");
    value.setAttribute("x", String(labelW + w + 6));
    value.setAttribute("y", String(y + barH - 5));
    value.setAttribute("class", "chart-value");
    value.textContent =
      [r.totalTokens ? `${formatTokens(r.totalTokens)} tok` : "", formatCosts(r.costs)].filter(Boolean).join(" · ") ||
      "context only";
    svg.append(label, bar, value);
  });
  chart.append(svg);
}

function renderTable(report: UsageReport): void {
  const head = document.createElement("tr");
  for (const h of [report.by, "turns", "input", "output", "cache r/w", "total", "cost", "context (max)"])
    head.append(cell("th", h));
  const body = report.rows.map((r) => {
    const tr = document.createElement("tr");
    const name = cell("td", r.label);
    if (report.by === "thread") {
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = r.label;
      a.addEventListener("click", (e) => {
        e.preventDefault();
        vscode.post({ type: "openThread", threadId: r.key });
      });
      name.replaceChildren(a);
    }
    tr.append(name, ...rowCells(r).map((c) => cell("td", c, "num")));
    return tr;
  });
  const total = document.createElement("tr");
  total.className = "total";
  total.append(cell("th", "total"), ...rowCells(report.total).map((c) => cell("td", c, "num")));
  table.replaceChildren(head, ...body, total);
}

function onMessage(m: UsageHostMessage): void {
  if (m.type === "error") {
    summary.textContent = m.message;
    return;
  }
  by.value = m.by;
  range.value = m.range;
  const r = m.report;
  summary.textContent = r.rows.length
    ? `${r.total.turns} ${r.total.turns === 1 ? "turn" : "turns"} with reported tokens, ${formatTokens(r.total.totalTokens)} tokens${r.total.costs.length ? `, ${formatCosts(r.total.costs)} reported cost` : ""}. Costs are what the agents report (blank: not reported); nothing is estimated.`
    : "No usage recorded in this range.";
  renderChart(r);
  renderTable(r);
}

const query = () => vscode.post({ type: "query", by: by.value as UsageGroupName, range: range.value as UsageRange });
by.addEventListener("change", query);
range.addEventListener("change", query);
window.addEventListener("message", (e: MessageEvent<UsageHostMessage>) => onMessage(e.data));
vscode.post({ type: "ready" });
