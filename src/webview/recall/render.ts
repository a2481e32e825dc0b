/**
 * Recall results → HTML (pure; unit-tested). Sessions with their source, age and folder; evidence windows as
 * readable text with the query's words lightly marked; counts in words ("1 session", "matching all words").
 */
import type { RecentResult } from "../../core/recall/recent";
import type { SearchResult } from "../../core/recall/search";
import { escapeHtml as esc } from "../shared/escape-html";
import { plural } from "../shared/plural";
import { readableEvidence } from "./evidence";

const SOURCE: Record<string, string> = {
  acp_threads: "ACP thread",
  codex_rollout: "Codex",
  claude_code_jsonl: "Claude Code",
};
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "");
const scopeWords = (kind: string) => (kind === "repo" ? "this repository" : "all repositories");

/** How the query matched, in words. */
export function modeWords(r: Pick<SearchResult, "mode" | "fallback">): string {
  if (r.fallback) return "no session has every word: showing sessions with any of them";
  if (r.mode === "alternatives") return "matching any of the alternatives";
  if (r.mode === "any") return "matching any word";
  return "matching all words";
}

/** Query words to mark (operators and quotes dropped). */
export function words(query: string): string[] {
  return query
    .split(/[\s|()"]+/)
    .map((w) => w.replace(/^[-+]/, ""))
    .filter((w) => w.length > 1 && !/^(AND|OR|NOT)$/.test(w));
}

export function highlight(text: string, ws: string[]): string {
  if (!ws.length) return esc(text);
  const re = new RegExp(`(${ws.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  return text
    .split(re)
    .map((part, i) => (i % 2 ? `<mark>${esc(part)}</mark>` : esc(part)))
    .join("");
}

const open = (source: string, path: string, label: string) =>
  `<a class="open" role="link" tabindex="0" data-source="${esc(source)}" data-path="${esc(path)}">${esc(label)}</a>`;

export function renderRecent(r: RecentResult): string {
  if (!r.sessions.length)
    return `<div class="empty muted">No past sessions in ${scopeWords(r.scope.kind)} yet. Use <b>Import</b> to add your Codex and Claude Code history.</div>`;
  return (
    `<div class="summary muted" role="status">Recent sessions in ${scopeWords(r.scope.kind)}</div><ul class="sessions" aria-label="Recent sessions">` +
    r.sessions
      .map(
        (s) =>
          `<li class="session">${open(s.source, s.path, s.title ?? s.preview ?? s.id)}<div class="meta muted">${esc(SOURCE[s.source] ?? s.source)} · ${esc(when(s.last_at))} · ${plural(s.messages, "message")}</div>${s.preview && s.preview !== s.title ? `<div class="preview">${esc(s.preview.slice(0, 200))}</div>` : ""}</li>`,
      )
      .join("") +
    `</ul>`
  );
}

/** Evidence from a Claude branch abandoned by a rewind: real text, but not what the conversation went on with. */
const OFF_CHAIN =
  ' <span class="tag off-chain" title="From a branch abandoned by a rewind or an edited prompt: not part of the conversation that went on">off the main branch</span>';

export function renderResults(r: SearchResult): string {
  if (r.status !== "ok")
    return `<div class="empty muted" role="status">No match for <b>${esc(r.query)}</b> in ${scopeWords(r.scope.kind)}.${r.scope.kind === "repo" ? " Try <b>all repos</b>." : ""}</div>`;
  const ws = words(r.query);
  const shown = r.sessions.length < r.matched_sessions ? ` (top ${r.sessions.length})` : "";
  return (
    `<div class="summary muted" role="status">${plural(r.matched_sessions, "session")}${shown} ${esc(modeWords(r))} · ${r.elapsed_ms} ms</div><ul class="sessions" aria-label="Matching sessions">` +
    r.sessions
      .map(
        (s) =>
          `<li class="session"><div class="session-head">${open(s.source, s.path, s.title ?? s.intent ?? s.id)}</div><div class="meta muted">${esc(SOURCE[s.source] ?? s.source)} · ${esc(when(s.last_at))}${s.repo || s.cwd ? ` · ${esc(s.repo ?? s.cwd ?? "")}` : ""}</div>${s.windows
            .map(
              (w) =>
                `<div class="window">${w.messages
                  .map(
                    (msg) =>
                      `<div class="msg${msg.hit ? " hit" : ""}" role="link" tabindex="0" data-source="${esc(s.source)}" data-path="${esc(s.path)}" data-line="${msg.line ?? ""}"><span class="role">${esc(msg.tool ?? msg.role)}</span>${msg.off_chain ? OFF_CHAIN : ""} ${highlight(msg.role === "tool" || msg.tool ? readableEvidence(msg.text) : msg.text, ws)}</div>`,
                  )
                  .join("")}</div>`,
            )
            .join("")}</li>`,
      )
      .join("") +
    `</ul>`
  );
}
