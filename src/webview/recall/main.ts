/**
 * Recall view: a search box (same syntax as `acp-threads recall`), scope toggle (this repo / all), all-terms
 * toggle; results grouped by session with highlighted evidence windows. Empty box = recent sessions.
 */
import { escapeHtml as esc } from "../shared/escape-html";
import type { RecallHostMessage, RecallWebviewMessage } from "./protocol";
import { $, bridge } from "../shared/host";

const vscode = bridge<RecallWebviewMessage>();
const post = vscode.post;
const q = $<HTMLInputElement>("q");
const scopeAll = $<HTMLInputElement>("scope-all");
const allTerms = $<HTMLInputElement>("all-terms");
const out = $<HTMLDivElement>("results");
const busy = $<HTMLDivElement>("busy");

const saved = vscode.getState<{ q?: string; all?: boolean; allTerms?: boolean }>() ?? {};
q.value = saved.q ?? "";
scopeAll.checked = !!saved.all;
allTerms.checked = !!saved.allTerms;

const SOURCE: Record<string, string> = {
  acp_threads: "ACP thread",
  codex_rollout: "Codex",
  claude_code_jsonl: "Claude Code",
};
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "");

/** Query words to highlight (operators and quotes dropped). */
function words(query: string): string[] {
  return query
    .split(/[\s|()"]+/)
    .map((w) => w.replace(/^[-+]/, ""))
    .filter((w) => w.length > 1 && !/^(AND|OR|NOT)$/.test(w));
}

function highlight(text: string, ws: string[]): string {
  let html = esc(text);
  for (const w of ws) {
    const re = new RegExp(esc(w).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
    html = html.replace(re, (m) => `<mark>${m}</mark>`);
  }
  return html;
}

let timer: ReturnType<typeof setTimeout> | undefined;
function search(): void {
  vscode.setState({ q: q.value, all: scopeAll.checked, allTerms: allTerms.checked });
  post({ type: "search", query: q.value.trim(), scope: scopeAll.checked ? "all" : "repo", allTerms: allTerms.checked });
}

function onMessage(m: RecallHostMessage): void {
  switch (m.type) {
    case "busy":
      busy.hidden = !m.text;
      busy.textContent = m.text ?? "";
      break;
    case "error":
      out.innerHTML = `<div class="error">${esc(m.message)}</div>`;
      break;
    case "recent":
      out.innerHTML = m.result.sessions.length
        ? `<div class="muted">Recent sessions (${m.result.scope.kind === "repo" ? "this repo" : "all"})</div>` +
          m.result.sessions
            .map(
              (s) =>
                `<div class="session"><a class="open" data-source="${esc(s.source)}" data-path="${esc(s.path)}">${esc(s.title ?? s.preview ?? s.id)}</a><div class="muted">${esc(SOURCE[s.source] ?? s.source)} · ${esc(when(s.last_at))} · ${s.messages} messages</div>${s.preview ? `<div class="preview">${esc(s.preview.slice(0, 200))}</div>` : ""}</div>`,
            )
            .join("")
        : `<div class="muted">No sessions yet. Use "Import" to add Codex and Claude Code history.</div>`;
      break;
    case "results": {
      const r = m.result;
      const ws = words(r.query);
      if (r.status !== "ok") {
        out.innerHTML = `<div class="muted">No match for <b>${esc(r.query)}</b> (${r.scope.kind === "repo" ? "this repo" : "all repos"}).</div>`;
        break;
      }
      out.innerHTML =
        `<div class="muted">${r.matched_sessions} session(s) · ${r.mode}${r.fallback ? " (fallback)" : ""} · ${r.elapsed_ms} ms</div>` +
        r.sessions
          .map(
            (
              s,
            ) => `<div class="session"><div class="session-head"><a class="open" data-source="${esc(s.source)}" data-path="${esc(s.path)}">${esc(s.title ?? s.intent ?? s.id)}</a></div>
<div class="muted">${esc(SOURCE[s.source] ?? s.source)} · ${esc(when(s.last_at))} · ${esc(s.repo ?? s.cwd ?? "")} · terms: ${esc(s.why.terms_matched.join(", "))}</div>
${s.windows
  .map(
    (w) =>
      `<div class="window">${w.messages
        .map(
          (msg) =>
            `<div class="msg${msg.hit ? " hit" : ""}" data-source="${esc(s.source)}" data-path="${esc(s.path)}" data-line="${msg.line ?? ""}"><span class="role">${esc(msg.tool ?? msg.role)}</span> ${highlight(msg.text, ws)}</div>`,
        )
        .join("")}</div>`,
  )
  .join("")}</div>`,
          )
          .join("");
      break;
    }
  }
}

window.addEventListener("message", (e: MessageEvent<RecallHostMessage>) => onMessage(e.data));
q.addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(search, 250);
});
q.addEventListener("keydown", (e) => e.key === "Enter" && search());
scopeAll.addEventListener("change", search);
allTerms.addEventListener("change", search);
$("import").addEventListener("click", () => post({ type: "import" }));
out.addEventListener("click", (e) => {
  const el = (e.target as HTMLElement).closest<HTMLElement>("[data-path]");
  if (!el) return;
  const line = Number(el.dataset.line);
  post({
    type: "open",
    source: el.dataset.source ?? "",
    path: el.dataset.path!,
    line: Number.isInteger(line) && line > 0 ? line : null,
  });
});
post({ type: "ready" });
search();
