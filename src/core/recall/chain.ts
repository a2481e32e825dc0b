/**
 * Claude Code off-chain branches (transcripts.md §B.6). The live conversation is the chain from the newest
 * user/assistant line back through parentUuid (logicalParentUuid across a compact boundary); lines of branches
 * abandoned by a rewind / Esc-Esc, or of an edited prompt's earlier version, are off that chain. They are still
 * indexed (they are real text) but flagged, and ranked a little lower.
 *
 * The flags are recomputed per session from the stored links at the end of each import of its file, so a tail
 * import that brings a rewind re-flags messages imported by earlier syncs.
 */
import type { Db } from "../db/sqlite";
import { sessionRange, type ChainNode } from "./model";
import { oneLine } from "./text";

/**
 * The lines of `nodes` (in file order) that are off the live chain. Two things in real transcripts are not
 * branches and must not flag half a session: a parentUuid naming a line that was never written (a write gap;
 * Claude's own resume bridges it) and a compact boundary without a logical parent. Both continue at the line
 * before. A uuid written twice is on the chain when either copy is.
 */
export function offChainLines(nodes: ChainNode[]): number[] {
  let leaf = -1;
  for (let i = nodes.length - 1; i >= 0; i--)
    if (nodes[i].kind === 1) {
      leaf = i;
      break;
    }
  if (leaf < 0) return [];
  const index = new Map<string, number>();
  nodes.forEach((n, i) => index.set(n.uuid, i));
  const on = new Set<number>();
  for (let i = leaf; i >= 0 && !on.has(i);) {
    on.add(i);
    const n = nodes[i];
    const parent = n.parent === null ? undefined : index.get(n.parent);
    if (parent !== undefined) i = parent;
    else if (n.parent !== null || n.kind === 2) i--;
    else break; // the root
  }
  const live = new Set<string>();
  for (const i of on) live.add(nodes[i].uuid);
  return nodes.filter((n) => !live.has(n.uuid)).map((n) => n.line);
}

/**
 * Recomputes one session's off-chain flags from its stored links; rewrites message flags only when a line's flag
 * changed (one pass over the session's messages), and then the session's intent: the first user prompt of the
 * live conversation, not a first prompt that was edited. Returns how many lines changed.
 */
export function markOffChain(db: Db, sid: number): number {
  const rows = db.all<ChainNode & { off: number }>(
    "SELECT line, uuid, parent, kind, off FROM chain_nodes WHERE sid = ? ORDER BY line",
    sid,
  );
  if (rows.length === 0) return 0;
  const off = new Set(offChainLines(rows));
  // lines of kind 0 (progress, attachments) carry no text: Claude writes hook progress as dead-end siblings of
  // the live chain in every session, so leaving their flag alone spares a pass over the messages per sync
  const changed = rows.filter((r) => r.kind !== 0 && (r.off === 1) !== off.has(r.line));
  if (changed.length === 0) return 0;
  const set = db.prepare("UPDATE chain_nodes SET off = ? WHERE sid = ? AND line = ?");
  try {
    for (const r of changed) set.run([off.has(r.line) ? 1 : 0, sid, r.line]);
  } finally {
    set.finalize();
  }
  db.run(
    `UPDATE messages SET off_chain = (line IN (SELECT line FROM chain_nodes WHERE sid = :sid AND off = 1))
     WHERE mid BETWEEN :lo AND :hi AND off_chain <> (line IN (SELECT line FROM chain_nodes WHERE sid = :sid AND off = 1))`,
    { ":sid": sid, ":lo": sessionRange(sid)[0], ":hi": sessionRange(sid)[1] },
  );
  const first = db.get<{ body: string }>(
    "SELECT body FROM messages WHERE mid BETWEEN ? AND ? AND role = 'user' AND kind = 'text' AND off_chain = 0 ORDER BY mid LIMIT 1",
    sessionRange(sid),
  );
  // the same preview the importer takes (importer.ts writeMessage), from the stored (redacted) body
  if (first) db.run("UPDATE sessions SET first_user = ? WHERE sid = ?", [oneLine(first.body).slice(0, 300), sid]);
  return changed.length;
}
