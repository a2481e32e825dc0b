/**
 * All writes to the recall index go through here: prepared statements, and transactions of about BATCH messages
 * spanning files, so a bulk import does not pay a commit per file; a batch ends early when a reader waits
 * (reader-turns.ts), so a search during an import waits for about PEEK_EVERY messages, not a whole batch.
 */
import type { Db, Stmt } from "../db/sqlite";
import { hitClass, messageId, sessionRange, type ChainNode, type ParsedMessage } from "./model";
import { redactSecrets } from "../redact";
import { giveReadersTheirTurn, readersWaiting } from "./reader-turns";
import { normalize, segment } from "./text";

export const BATCH = 1000;
const PEEK_EVERY = 100;

const utf8 = (text: string) => Buffer.from(text, "utf8");

export interface FileRow {
  path: string;
  source: string;
  sid: number | null;
  inode: number;
  size: number;
  mtime_ms: number;
  offset: number;
  line: number;
  parser_version: number;
  state: string | null;
  unknown: number;
  bad_lines: number;
}

export class RecallWriter {
  #pending = 0;
  #peekAt = PEEK_EVERY;
  #inTx = false;
  readonly #insertMsg: Stmt;
  readonly #insertFts: Stmt;
  readonly #updateMsg: Stmt;
  readonly #deleteFts: Stmt;
  readonly #upsertFile: Stmt;
  readonly #insertNode: Stmt;
  messagesWritten = 0;
  /** New messages in committed transactions (a rolled-back batch does not count). */
  messagesCommitted = 0;
  #newInBatch = 0;

  constructor(readonly db: Db) {
    // Text goes in as UTF-8 bytes cast back to TEXT: Buffer.from encodes natively, the binding's own string
    // path encodes in JavaScript one character at a time (a tenth of an import's time)
    this.#insertMsg = db.prepare(
      "INSERT INTO messages(mid, sid, seq, role, kind, tool, ts, line, ext_id, body) VALUES (?,?,?,?,?,?,?,?,?,CAST(? AS TEXT))",
    );
    this.#insertFts = db.prepare("INSERT INTO msg_fts(rowid, seg) VALUES (?, CAST(? AS TEXT))");
    this.#updateMsg = db.prepare("UPDATE messages SET body = CAST(? AS TEXT), ts = coalesce(?, ts) WHERE mid = ?");
    this.#deleteFts = db.prepare("DELETE FROM msg_fts WHERE rowid = ?");
    this.#insertNode = db.prepare(
      "INSERT OR REPLACE INTO chain_nodes(sid, line, uuid, parent, kind) VALUES (?, ?, ?, ?, ?)",
    );
    this.#upsertFile = db.prepare(
      `INSERT INTO files(path, source, sid, inode, size, mtime_ms, offset, line, parser_version, state, unknown, bad_lines, synced_at)
       VALUES (:path, :source, :sid, :inode, :size, :mtime_ms, :offset, :line, :parser_version, :state, :unknown, :bad_lines, :now)
       ON CONFLICT(path) DO UPDATE SET source=excluded.source, sid=excluded.sid, inode=excluded.inode, size=excluded.size,
         mtime_ms=excluded.mtime_ms, offset=excluded.offset, line=excluded.line, parser_version=excluded.parser_version,
         state=excluded.state, unknown=excluded.unknown, bad_lines=excluded.bad_lines, synced_at=excluded.synced_at`,
    );
  }

  #begin(): void {
    if (!this.#inTx) {
      this.db.exec("BEGIN IMMEDIATE");
      this.#inTx = true;
    }
  }

  /** Commits when the batch is full; call only where the file row is consistent with what was written. */
  maybeCommit(): void {
    if (this.#pending >= BATCH) this.commit();
  }

  /**
   * True when the batch should be committed: it is full, or a reader waits for the file (asked every PEEK_EVERY
   * messages) and gets it after a small batch instead of a whole one (~15 ms of importing instead of ~200).
   */
  get batchFull(): boolean {
    if (this.#pending >= BATCH) return true;
    if (this.#pending < this.#peekAt) return false;
    this.#peekAt = this.#pending + PEEK_EVERY;
    return readersWaiting(this.db.path);
  }

  commit(): void {
    const committed = this.#inTx;
    if (this.#inTx) this.db.exec("COMMIT");
    this.#inTx = false;
    if (committed) giveReadersTheirTurn(this.db.path);
    this.#pending = 0;
    this.#peekAt = PEEK_EVERY;
    this.messagesCommitted += this.#newInBatch;
    this.#newInBatch = 0;
  }

  rollback(): void {
    if (this.#inTx) this.db.exec("ROLLBACK");
    this.#inTx = false;
    this.#pending = 0;
    this.#peekAt = PEEK_EVERY;
    this.#newInBatch = 0;
  }

  /** Writes one message (or rewrites a joined one); returns the characters indexed. */
  message(sid: number, m: ParsedMessage): number {
    this.#begin();
    const body = redactSecrets(m.content);
    const seg = utf8(segment(normalize(body)));
    const bytes = utf8(body);
    const mid = messageId(sid, m.replaceSeq ?? m.seq, hitClass(m.role, m.kind));
    if (m.replaceSeq !== undefined && this.#updateMsg.run([bytes, m.ts ?? null, mid]).changes > 0) {
      this.#deleteFts.run(mid);
      this.#insertFts.run([mid, seg]);
      this.#pending++;
      return 0;
    }
    this.#insertMsg.run([
      mid,
      sid,
      m.seq,
      m.role,
      m.kind,
      m.toolName ?? null,
      m.ts ?? null,
      m.line,
      m.extId ?? null,
      bytes,
    ]);
    this.#insertFts.run([mid, seg]);
    this.#pending++;
    this.messagesWritten++;
    this.#newInBatch++;
    return body.length;
  }

  /** Stores a transcript line's tree link (chain.ts recomputes the session's off-chain flags from them). */
  node(sid: number, n: ChainNode): void {
    this.#begin();
    this.#insertNode.run([sid, n.line, n.uuid, n.parent, n.kind]);
  }

  file(row: FileRow): void {
    this.#begin();
    const params = Object.fromEntries(Object.entries({ ...row, now: Date.now() }).map(([k, v]) => [`:${k}`, v]));
    this.#upsertFile.run(params as Record<string, string | number | null>);
  }

  newSession(source: string, path: string): number {
    this.#begin();
    const existing = this.db.get<{ sid: number }>("SELECT sid FROM sessions WHERE path = ?", path);
    if (existing) return existing.sid;
    return Number(this.db.run("INSERT INTO sessions(source, path) VALUES (?, ?)", [source, path]).lastInsertRowid);
  }

  /** Drops a session's messages (file replaced, shrunk, or parsed by an older parser). */
  dropSession(sid: number): void {
    this.#begin();
    const range = sessionRange(sid);
    const mids = this.db.all<{ mid: number }>("SELECT mid FROM messages WHERE mid BETWEEN ? AND ?", range);
    for (const { mid } of mids) this.#deleteFts.run(mid);
    this.db.run("DELETE FROM messages WHERE mid BETWEEN ? AND ?", range);
    this.db.run("DELETE FROM chain_nodes WHERE sid = ?", sid);
    this.db.run(
      "UPDATE sessions SET msg_count = 0, chars = 0, first_user = NULL, title = NULL, last_ts = NULL WHERE sid = ?",
      sid,
    );
  }

  finalize(): void {
    this.rollback();
    for (const s of [
      this.#insertMsg,
      this.#insertFts,
      this.#updateMsg,
      this.#deleteFts,
      this.#upsertFile,
      this.#insertNode,
    ])
      s.finalize();
  }
}
