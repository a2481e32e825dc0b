/**
 * Deterministic session ranking. The tuple, compared in order, is returned as `why` so a person or an agent can
 * see (and reproduce) the order: distinct terms matched, first-hand (user/assistant) hits, hit density per 1k
 * chars, same repo, recency, id.
 */
import type { Hit } from "./hits";

export interface SessionInfo {
  sid: number;
  id: string;
  source: string;
  path: string;
  cwd: string | null;
  repo: string | null;
  started_at: number | null;
  last_ts: number | null;
  title: string | null;
  first_user: string | null;
  chars: number;
  msg_count: number;
}

export interface Why {
  distinct_terms: number;
  terms_matched: string[];
  first_hand_hits: number;
  other_hits: number;
  hit_density: number;
  same_repo: boolean;
  last_ts: number | null;
}

export interface RankedSession {
  session: SessionInfo;
  hits: Hit[];
  why: Why;
}

/** A hit in text a person or the agent wrote, as opposed to tool output, summaries or harness text. */
export const isFirstHand = (h: Pick<Hit, "role" | "kind">) => (h.role === "user" || h.role === "assistant") && h.kind === "text";

export function rankSessions(
  bySession: Map<number, Hit[]>,
  info: Map<number, SessionInfo>,
  termTexts: string[],
  currentRepo: string | undefined,
): RankedSession[] {
  const ranked: RankedSession[] = [];
  for (const [sid, hits] of bySession) {
    const session = info.get(sid);
    if (!session) continue;
    const terms = [...new Set(hits.map((h) => h.term))].sort((a, b) => a - b);
    const firstHand = hits.filter(isFirstHand).length;
    ranked.push({
      session,
      hits,
      why: {
        distinct_terms: terms.length,
        terms_matched: terms.map((t) => termTexts[t]),
        first_hand_hits: firstHand,
        other_hits: hits.length - firstHand,
        hit_density: Math.round((hits.length / Math.max(1, session.chars / 1000)) * 1000) / 1000,
        same_repo: currentRepo !== undefined && session.repo === currentRepo,
        last_ts: session.last_ts,
      },
    });
  }
  ranked.sort((a, b) => {
    const x = a.why;
    const y = b.why;
    return (
      y.distinct_terms - x.distinct_terms ||
      y.first_hand_hits - x.first_hand_hits ||
      y.hit_density - x.hit_density ||
      Number(y.same_repo) - Number(x.same_repo) ||
      (y.last_ts ?? 0) - (x.last_ts ?? 0) ||
      (a.session.id < b.session.id ? -1 : a.session.id > b.session.id ? 1 : a.session.sid - b.session.sid)
    );
  });
  return ranked;
}
