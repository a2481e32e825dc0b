/**
 * Deterministic session ranking. The tuple, compared in order, is returned as `why` so a person or an agent can
 * see (and reproduce) the order: distinct terms matched, first-hand (user/assistant) hits, hit density per 1k
 * chars, same repo, recency, id. A hit on a branch abandoned by a rewind still counts as a hit (terms, density)
 * but not as first-hand: such a session ranks a little below one whose live conversation has the words.
 */
import type { SessionCount } from "./hits";

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
  /** User/assistant text on the live conversation. */
  first_hand_hits: number;
  /** Tool output, summaries, harness text, and hits on abandoned branches. */
  other_hits: number;
  /** Of `other_hits`: hits on Claude branches abandoned by a rewind (off the live chain). */
  off_chain_hits: number;
  hit_density: number;
  same_repo: boolean;
  last_ts: number | null;
}

/** What ranking needs of a session (the full row is fetched only for the sessions shown). */
export interface RankInfo {
  sid: number;
  id: string;
  last_ts: number | null;
  chars: number;
  same_repo: number;
}

export interface RankedSession {
  session: RankInfo;
  terms: number[];
  why: Why;
}

/** `perSession`: for each matching session, the count of each term found in it (by term index). */
export function rankSessions(
  perSession: Map<number, Map<number, SessionCount>>,
  info: Map<number, RankInfo>,
  termTexts: string[],
): RankedSession[] {
  const ranked: RankedSession[] = [];
  for (const [sid, byTerm] of perSession) {
    const session = info.get(sid);
    if (!session) continue;
    const terms = [...byTerm.keys()].sort((a, b) => a - b);
    let hits = 0;
    let firstHand = 0;
    let offChain = 0;
    for (const c of byTerm.values()) {
      hits += c.hits;
      firstHand += c.firstHand;
      offChain += c.offChain;
    }
    ranked.push({
      session,
      terms,
      why: {
        distinct_terms: terms.length,
        terms_matched: terms.map((t) => termTexts[t]),
        first_hand_hits: firstHand,
        other_hits: hits - firstHand,
        off_chain_hits: offChain,
        hit_density: Math.round((hits / Math.max(1, session.chars / 1000)) * 1000) / 1000,
        same_repo: session.same_repo === 1,
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
