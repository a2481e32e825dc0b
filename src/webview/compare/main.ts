/**
 * Best of N compare view webview: one card per candidate (agent, live status, answer, files with +/- lines,
 * tokens, cost, duration, check result) with Open / Open diff / Apply / Keep / Discard others; a candidate waiting
 * for a permission answer says "waits for you" with the request and the agent's options to answer it right there. The first of the
 * ranking wears "best" only when it leads for a reason, else "fastest". Plain DOM, strict CSP.
 */
import type { Leader } from "../../core/worktree/candidates";
import { formatCosts } from "../../core/usage/format";
import { $, bridge } from "../shared/host";
import type { CandidateRow, CompareAction, CompareHostMessage, CompareWebviewMessage } from "./protocol";

const vscode = bridge<CompareWebviewMessage>();
const summary = $<HTMLParagraphElement>("summary");
const list = $<HTMLDivElement>("candidates");

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

const seconds = (ms: number | null) => (ms === null ? "" : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);
const tokens = (n: number | null) => (n === null ? "—" : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
const STATUS: Record<CandidateRow["status"], string> = {
  waiting: "waiting",
  working: "working…",
  asking: "waits for you",
  checking: "checking…",
  done: "done",
  failed: "failed",
};

function checkText(r: CandidateRow): string {
  if (!r.check) return "no check";
  if (r.check.timedOut) return `${r.check.command}: timed out`;
  return `${r.check.command}: ${r.check.exitCode === 0 ? "passed" : `failed (exit ${r.check.exitCode ?? "signal"})`}`;
}

function button(label: string, action: CompareAction, r: CandidateRow, primary = false): HTMLButtonElement {
  const b = el("button", label, primary ? "" : "secondary");
  b.type = "button";
  b.dataset.action = action;
  b.disabled = !r.threadId || r.outcome === "discarded";
  b.addEventListener("click", () => r.threadId && vscode.post({ type: action, threadId: r.threadId }));
  return b;
}

/** The permission request a candidate waits on, with the agent's own options (answered here or in its panel). */
function askCard(r: CandidateRow, ask: NonNullable<CandidateRow["asks"]>): HTMLElement {
  const box = el("div", undefined, "asks");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `${r.label} asks: ${ask.title}`);
  box.append(el("p", `Asks: ${ask.title}`));
  const row = el("div", undefined, "actions");
  for (const o of ask.options) {
    const b = el("button", o.name, o.kind.startsWith("allow") ? "" : "secondary");
    b.type = "button";
    b.dataset.option = o.optionId;
    b.addEventListener(
      "click",
      () =>
        r.threadId &&
        vscode.post({ type: "answer", threadId: r.threadId, requestId: ask.requestId, optionId: o.optionId }),
    );
    row.append(b);
  }
  box.append(row);
  return box;
}

function card(r: CandidateRow, leader: Leader | undefined, running: boolean): HTMLElement {
  const best = leader?.kind === "best";
  const c = el("section", undefined, `candidate status-${r.status}${best ? " best" : ""}`);
  c.setAttribute("aria-label", `${r.label}, ${STATUS[r.status]}${leader ? `, ${leader.kind}` : ""}`);
  const head = el("div", undefined, "head");
  head.append(el("h2", r.label), el("span", STATUS[r.status], `badge ${r.status}`));
  if (leader) {
    const badge = el("span", leader.kind, `badge ${leader.kind}`);
    badge.title = leader.why;
    head.append(badge);
  }
  if (r.outcome) head.append(el("span", r.outcome, "badge outcome"));
  c.append(head);
  const facts = el("div", undefined, "facts");
  facts.append(
    el("span", `${r.files.length} file${r.files.length === 1 ? "" : "s"} +${r.added} −${r.removed}`),
    el("span", `${tokens(r.tokens)} tokens`),
    ...(r.costs.length ? [el("span", formatCosts(r.costs), "cost")] : []),
    el("span", seconds(r.durationMs)),
    el("span", checkText(r), r.check ? (r.check.exitCode === 0 ? "pass" : "fail") : "muted"),
  );
  c.append(facts);
  if (r.asks) c.append(askCard(r, r.asks));
  if (r.error) c.append(el("p", r.error, "error"));
  if (r.answer) c.append(el("pre", r.answer, "answer"));
  if (r.files.length) {
    const ul = el("ul", undefined, "files");
    for (const f of r.files.slice(0, 50))
      ul.append(el("li", `${f.path}  ${f.added === null ? "binary" : `+${f.added} −${f.removed}`}`));
    c.append(ul);
  }
  const actions = el("div", undefined, "actions");
  const finished = r.status === "done" || r.status === "failed";
  const apply = button("Apply", "apply", r, true);
  apply.disabled ||= !finished || !r.files.length;
  if (finished && !r.files.length) apply.title = "Nothing to apply: this candidate changed no files";
  const others = button("Discard others", "discardOthers", r);
  others.disabled ||= running;
  actions.append(button("Open", "open", r), button("Open diff", "diff", r), apply, button("Keep", "keep", r), others);
  c.append(actions);
  return c;
}

function render(m: CompareHostMessage): void {
  const done = m.rows.filter((r) => r.status === "done" || r.status === "failed").length;
  summary.textContent = `“${m.prompt}” · ${m.rows.length} candidates, ${done} finished${m.check ? ` · check: ${m.check}` : ""}${m.running ? "" : " · all done"}`;
  list.replaceChildren(
    ...m.rows.map((r) => card(r, !m.running && r.label === m.leader?.label ? m.leader : undefined, m.running)),
  );
}

window.addEventListener("message", (e: MessageEvent<CompareHostMessage>) => {
  if (e.data?.type === "state") {
    // VS Code keeps this across a reload: the restored panel is handed the record to resume (best-of-resume.ts)
    if (e.data.recordId) vscode.setState({ recordId: e.data.recordId });
    render(e.data);
  }
});
vscode.post({ type: "ready" });
