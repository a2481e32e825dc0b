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

/** What the order compares, for every matching session; the `why` is built only for the sessions returned. */
interface Key {
  session: RankInfo;
  byTerm: Map<number, SessionCount>;
  hits: number;
  firstHand: number;
  offChain: number;
  density: number;
}

function compare(a: Key, b: Key): number {
  return (
    b.byTerm.size - a.byTerm.size ||
    b.firstHand - a.firstHand ||
    b.density - a.density ||
    b.session.same_repo - a.session.same_repo ||
    (b.session.last_ts ?? 0) - (a.session.last_ts ?? 0) ||
    (a.session.id < b.session.id ? -1 : a.session.id > b.session.id ? 1 : a.session.sid - b.session.sid)
  );
}

/** The first `limit` keys in `compare` order: one pass keeping a short sorted list (a full sort when it is all). */
function firstKeys(keys: Key[], limit: number): Key[] {
  if (limit >= keys.length) return keys.sort(compare);
  if (!(limit > 0)) return [];
  const best: Key[] = [];
  for (const k of keys) {
    if (best.length === limit && compare(k, best[limit - 1]) >= 0) continue;
    let at = best.length;
    while (at > 0 && compare(k, best[at - 1]) < 0) at--;
    best.splice(at, 0, k);
    if (best.length > limit) best.pop();
  }
  return best;
}

/**
 * `perSession`: for each matching session, the count of each term found in it (by term index). Returns the best
 * `limit` sessions in order (the order is total, so this is the head of the full ranking).
 */
export function rankSessions(
  perSession: Map<number, Map<number, SessionCount>>,
  info: Map<number, RankInfo>,
  termTexts: string[],
  limit = Infinity,
): RankedSession[] {
  const keys: Key[] = [];
  for (const [sid, byTerm] of perSession) {
    const session = info.get(sid);
    if (!session) continue;
    let hits = 0;
    let firstHand = 0;
    let offChain = 0;
    for (const c of byTerm.values()) {
      hits += c.hits;
      firstHand += c.firstHand;
      offChain += c.offChain;
    }
    const density = Math.round((hits / Math.max(1, session.chars / 1000)) * 1000) / 1000;
    keys.push({ session, byTerm, hits, firstHand, offChain, density });
  }
  return firstKeys(keys, limit).map((k) => {
    const terms = [...k.byTerm.keys()].sort((a, b) => a - b);
    return {
      session: k.session,
      terms,
      why: {
        distinct_terms: terms.length,
        terms_matched: terms.map((t) => termTexts[t]),
        first_hand_hits: k.firstHand,
        other_hits: k.hits - k.firstHand,
        off_chain_hits: k.offChain,
        hit_density: k.density,
        same_repo: k.session.same_repo === 1,
        last_ts: k.session.last_ts,
      },
    };
  });
}
