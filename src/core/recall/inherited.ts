/**
 * Codex fork and sub-agent rollouts start with a verbatim copy of the parent's history (transcripts.md §A.6).
 * While a child's leading messages equal messages of its already-indexed parent they are dropped, so every hit
 * is counted once; the first message that differs ends the prefix for good (kept in the parser state, so a tail
 * import does not start comparing again). A parent indexed after its child cannot be matched: rollouts are
 * imported newest first, and a parent usually outlives (and is written after) its sub-agents.
 */
import type { Db } from "../db/sqlite";
import { redactSecrets } from "../redact";
import { sessionRange, type ParsedMessage } from "./model";
import type { CodexState } from "./parse-codex";

export function inheritedFilter(db: Db, state: CodexState): (m: ParsedMessage) => boolean {
  let parentBodies: Set<string> | undefined;
  const load = (parentId: string): Set<string> => {
    const out = new Set<string>();
    const stmt = db.prepare("SELECT role, body FROM messages WHERE mid BETWEEN ? AND ?");
    try {
      for (const { sid } of db.all<{ sid: number }>(
        "SELECT sid FROM sessions WHERE id = ? AND source = 'codex_rollout'",
        parentId,
      ))
        for (const r of stmt.all<{ role: string; body: string }>(sessionRange(sid)))
          out.add(`${r.role}\u0000${r.body}`);
    } finally {
      stmt.finalize();
    }
    return out;
  };
  /** True when the message should be indexed. */
  return (m) => {
    const parentId = state.meta.parentId;
    if (!parentId || state.prefixDone || m.replaceSeq !== undefined) return true;
    parentBodies ??= load(parentId);
    if (parentBodies.has(`${m.role}\u0000${redactSecrets(m.content)}`)) return false;
    state.prefixDone = true;
    return true;
  };
}
