/**
 * Recall hits as `@` suggestions: past sessions of this repository (ours and imported Codex / Claude Code
 * history) that match the query, offered with their evidence windows as the text the agent gets. Our own
 * threads are left to the threads index (they are offered by id, with their whole conversation). The search runs
 * in the recall worker, so a slow one never holds the host.
 */
import { renderSearchMarkdown } from "../../core/recall/render";
import type { Hub } from "../hub";
import { searchRecall } from "../recall-view";
import type { RecallChoice } from "./mentions";

const LIMIT = 5;

/** `signal`: a newer `@` query of the same panel cancels this search (core/engine/worker.ts). */
export async function recallMentions(hub: Hub, query: string, signal?: AbortSignal): Promise<RecallChoice[]> {
  const found = await searchRecall(hub, query, { all: false, allTerms: false }, signal);
  if (found.type !== "results" || found.result.status !== "ok") return [];
  return found.result.sessions
    .filter((s) => s.source !== "acp_threads")
    .slice(0, LIMIT)
    .map((s) => ({
      title: (s.title ?? s.intent ?? s.id).replace(/\s+/g, " ").slice(0, 80),
      detail: `${s.source} · ${(s.last_at ?? s.started_at ?? "").slice(0, 10)} · recall`,
      uri: `acp-threads://recall/${encodeURIComponent(s.source)}/${encodeURIComponent(s.id)}`,
      content: renderSearchMarkdown({ ...found.result, sessions: [s] }),
    }));
}
