/**
 * Recall view: a search box (same syntax as `acp-threads recall`), scope toggle (this repo / all), all-terms
 * toggle; results grouped by session with highlighted evidence windows. Empty box = recent sessions.
 */
import { escapeHtml as esc } from "../shared/escape-html";
import { renderRecent, renderResults } from "./render";
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

let timer: ReturnType<typeof setTimeout> | undefined;
function search(): void {
  setBusy(q.value.trim() ? "Searching…" : "Loading recent sessions…");
  vscode.setState({ q: q.value, all: scopeAll.checked, allTerms: allTerms.checked });
  post({ type: "search", query: q.value.trim(), scope: scopeAll.checked ? "all" : "repo", allTerms: allTerms.checked });
}

/** Shows that a search is running; results replace it. Before the first answer the list says "Loading…". */
function setBusy(text: string | null): void {
  busy.hidden = !text;
  busy.textContent = text ?? "";
  out.setAttribute("aria-busy", String(!!text));
}

function onMessage(m: RecallHostMessage): void {
  switch (m.type) {
    case "busy":
      setBusy(m.text);
      break;
    case "error":
      setBusy(null);
      out.innerHTML = `<div class="error" role="alert">${esc(m.message)}</div>`;
      break;
    case "recent":
      setBusy(null);
      out.innerHTML = renderRecent(m.result);
      break;
    case "results":
      setBusy(null);
      out.innerHTML = renderResults(m.result);
      break;
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
out.addEventListener("keydown", (e) => {
  const t = e.target as HTMLElement;
  if ((e.key === "Enter" || e.key === " ") && t.getAttribute("role") === "link") {
    e.preventDefault();
    t.click();
  }
});
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
// the box is wired and its saved query restored: text typed from here on is searched (tests wait for this; typed
// before it, the saved query would replace it)
document.body.dataset.ready = "true";
