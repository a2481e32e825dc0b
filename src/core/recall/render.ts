/**
 * Markdown rendering of search and recent results (JSON output is the result objects themselves). The search
 * answer is built from line groups that budget.ts also measures, so `--budget-chars` bounds the printed total.
 */
import type { RecentResult } from "./recent";
import type { SearchResult, SessionResult } from "./result";
import type { EvidenceWindow, WindowMessage } from "./windows";

const fence = (text: string) => text.replace(/\n{3,}/g, "\n\n").trim();

function quote(text: string): string {
  return fence(text)
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

/** Characters that `lines` take in the output (each line ends with a newline). */
export const linesCost = (lines: string[]): number => lines.reduce((n, l) => n + l.length + 1, 0);

const scopeText = (r: Pick<SearchResult, "scope">) =>
  r.scope.kind === "global" ? "global" : `repo ${r.scope.repo ?? "?"}`;

/** The heading and status line of a search answer. */
export function headLines(r: Omit<SearchResult, "elapsed_ms">): string[] {
  const head = `## Recall: ${JSON.stringify(r.query)} (${scopeText(r)})`;
  if (r.status !== "ok") return [head, "", `Status: ${r.status}`];
  const fallback = r.fallback ? " (fallback: no session had every term)" : "";
  return [
    head,
    "",
    `Status: ok · ${r.sessions.length} of ${r.matched_sessions} sessions · mode ${r.mode}${fallback}${r.truncated ? " · truncated" : ""}`,
  ];
}

export const tailLines = (elapsedMs: number): string[] => ["", `elapsed: ${elapsedMs} ms`];

export function sessionLines(s: SessionResult, i: number): string[] {
  const lines = ["", `### ${i + 1}. ${s.title ?? s.intent?.slice(0, 100) ?? s.id}`];
  lines.push(`${s.source} · ${s.id} · ${s.started_at ?? "?"} · ${s.repo ?? s.cwd ?? "?"}`);
  lines.push(`path: ${s.path}`);
  if (s.intent && s.title) lines.push(`intent: ${s.intent.slice(0, 200)}`);
  const w = s.why;
  lines.push(
    `why: ${w.distinct_terms} term(s) [${w.terms_matched.join(", ")}], ${w.first_hand_hits} user/assistant hit(s), ${w.other_hits} other${w.off_chain_hits ? ` (${w.off_chain_hits} off the main branch)` : ""}, density ${w.hit_density}/1k chars${w.same_repo ? ", same repo" : ""}`,
  );
  return lines;
}

export const windowLines = (win: Pick<EvidenceWindow, "from_seq" | "to_seq">): string[] => [
  "",
  `#### messages ${win.from_seq}–${win.to_seq}`,
];

export function messageLines(m: WindowMessage): string[] {
  const label = `${m.hit ? "**" : ""}${m.role}${m.tool ? `:${m.tool}` : ""}${m.kind === "compaction" ? " (compaction summary)" : ""}${m.off_chain ? " (off the main branch)" : ""}${m.hit ? "**" : ""}`;
  return [
    `${label} #${m.seq}${m.line ? ` (line ${m.line})` : ""}${m.ts ? ` ${new Date(m.ts).toISOString()}` : ""}`,
    quote(m.text),
  ];
}

export function renderSearchMarkdown(r: SearchResult): string {
  const lines = headLines(r);
  if (r.status !== "ok") return `${lines.join("\n")}\n`;
  r.sessions.forEach((s, i) => {
    lines.push(...sessionLines(s, i));
    for (const win of s.windows) {
      lines.push(...windowLines(win));
      for (const m of win.messages) lines.push(...messageLines(m));
    }
  });
  lines.push(...tailLines(r.elapsed_ms));
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

export type TextFormat = "markdown" | "json";

/** A search answer as the CLI prints it. */
export const renderSearch = (r: SearchResult, format: TextFormat): string =>
  format === "json" ? `${JSON.stringify(r, null, 2)}\n` : renderSearchMarkdown(r);

export const renderRecent = (r: RecentResult, format: TextFormat): string =>
  format === "json" ? `${JSON.stringify(r, null, 2)}\n` : renderRecentMarkdown(r);
