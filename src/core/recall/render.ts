/** Markdown rendering of search and recent results (JSON output is the result objects themselves). */
import type { RecentResult } from "./recent";
import type { SearchResult } from "./search";

const fence = (text: string) => text.replace(/\n{3,}/g, "\n\n").trim();

function quote(text: string): string {
  return fence(text)
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

export function renderSearchMarkdown(r: SearchResult): string {
  const scope = r.scope.kind === "global" ? "global" : `repo ${r.scope.repo ?? "?"}`;
  const head = `## Recall: ${JSON.stringify(r.query)} (${scope})`;
  if (r.status === "empty_query") return `${head}\n\nStatus: empty_query\n`;
  if (r.status === "no_match") return `${head}\n\nStatus: no_match\n`;
  const lines = [
    head,
    "",
    `Status: ok · ${r.sessions.length} of ${r.matched_sessions} sessions · mode ${r.mode}${r.fallback ? " (fallback: no session had every term)" : ""}${r.truncated ? " · truncated" : ""}`,
  ];
  r.sessions.forEach((s, i) => {
    lines.push("", `### ${i + 1}. ${s.title ?? s.intent?.slice(0, 100) ?? s.id}`);
    lines.push(`${s.source} · ${s.id} · ${s.started_at ?? "?"} · ${s.repo ?? s.cwd ?? "?"}`);
    lines.push(`path: ${s.path}`);
    if (s.intent && s.title) lines.push(`intent: ${s.intent.slice(0, 200)}`);
    const w = s.why;
    lines.push(
      `why: ${w.distinct_terms} term(s) [${w.terms_matched.join(", ")}], ${w.first_hand_hits} user/assistant hit(s), ${w.other_hits} other, density ${w.hit_density}/1k chars${w.same_repo ? ", same repo" : ""}`,
    );
    for (const win of s.windows) {
      lines.push("", `#### messages ${win.from_seq}–${win.to_seq}`);
      for (const m of win.messages) {
        const label = `${m.hit ? "**" : ""}${m.role}${m.tool ? `:${m.tool}` : ""}${m.kind === "compaction" ? " (compaction summary)" : ""}${m.hit ? "**" : ""}`;
        lines.push(
          `${label} #${m.seq}${m.line ? ` (line ${m.line})` : ""}${m.ts ? ` ${new Date(m.ts).toISOString()}` : ""}`,
        );
        lines.push(quote(m.text));
      }
    }
  });
  lines.push("", `elapsed: ${r.elapsed_ms} ms`);
  return `${lines.join("\n")}\n`;
}

export function renderRecentMarkdown(r: RecentResult): string {
  const scope = r.scope.kind === "global" ? "global" : `repo ${r.scope.repo ?? "?"}`;
  const lines = [`## Recent sessions (${scope})`, ""];
  if (r.status === "no_match") return `${lines[0]}\n\nStatus: no_match\n`;
  r.sessions.forEach((s, i) => {
    lines.push(
      `${i + 1}. ${s.last_at ?? s.started_at ?? "?"} · ${s.source} · ${s.id} · ${s.messages} msgs${s.title ? ` · ${s.title}` : ""}`,
    );
    if (s.preview) lines.push(`   ${s.preview.slice(0, 200)}`);
    lines.push(`   ${s.path}`);
  });
  return `${lines.join("\n")}\n`;
}
