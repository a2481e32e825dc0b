/**
 * The recall index schema (a derived cache: bump SCHEMA_VERSION and the file is rebuilt from the transcripts).
 * Messages keep their redacted, capped body for evidence windows; the FTS table is contentless and holds only the
 * JS-segmented text (see text.ts), keyed by the message rowid. Claude transcripts also keep their uuid/parentUuid
 * links (chain_nodes) so that messages on branches abandoned by a rewind are flagged off_chain (chain.ts).
 */
import type { Db } from "../db/sqlite";

export const SCHEMA_VERSION = 9;
/** Bump when a parser changes what it extracts: every file is then re-read from its start. */
export const PARSER_VERSION = 6;

export function createSchema(db: Db): void {
  db.exec(`
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
    CREATE TABLE files(
      path TEXT PRIMARY KEY, source TEXT NOT NULL, sid INTEGER, inode INTEGER, size INTEGER, mtime_ms REAL,
      offset INTEGER NOT NULL DEFAULT 0, line INTEGER NOT NULL DEFAULT 0, parser_version INTEGER, state TEXT,
      unknown INTEGER NOT NULL DEFAULT 0, bad_lines INTEGER NOT NULL DEFAULT 0, synced_at INTEGER);
    CREATE TABLE sessions(
      sid INTEGER PRIMARY KEY, id TEXT, source TEXT NOT NULL, path TEXT NOT NULL UNIQUE, cwd TEXT, repo TEXT,
      started_at INTEGER, last_ts INTEGER, title TEXT, first_user TEXT, msg_count INTEGER NOT NULL DEFAULT 0,
      chars INTEGER NOT NULL DEFAULT 0, git_branch TEXT);
    CREATE INDEX sessions_repo ON sessions(repo, last_ts);
    CREATE INDEX sessions_last ON sessions(last_ts);
    CREATE INDEX sessions_id ON sessions(id);
    -- mid = sid·2^24 + seq·4 + hit class (model.ts messageId): a session's messages are one rowid range
    CREATE TABLE messages(
      mid INTEGER PRIMARY KEY, sid INTEGER NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL, kind TEXT NOT NULL,
      tool TEXT, ts INTEGER, line INTEGER, ext_id TEXT, body TEXT NOT NULL, off_chain INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX messages_ext ON messages(ext_id) WHERE ext_id IS NOT NULL;
    CREATE INDEX messages_off ON messages(off_chain) WHERE off_chain = 1;
    -- one row per Claude transcript line with a uuid; kind 1 = user/assistant, 2 = compact boundary, 0 = other
    CREATE TABLE chain_nodes(
      sid INTEGER NOT NULL, line INTEGER NOT NULL, uuid TEXT NOT NULL, parent TEXT, kind INTEGER NOT NULL,
      off INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(sid, line)) WITHOUT ROWID;
    CREATE VIRTUAL TABLE msg_fts USING fts5(seg, content='', contentless_delete=1, tokenize="ascii tokenchars '_'");
    -- bulk imports: one segment per batch (the pending terms stay in memory up to the commit), fewer merges
    INSERT INTO msg_fts(msg_fts, rank) VALUES ('hashsize', 67108864);
  `);
}

/**
 * The index is a cache: a killed process leaves the OS with every write (the rollback journal still guards a torn
 * transaction), and only an OS crash can damage it, which the corrupt-rebuild path covers. So no fsync per batch.
 */
export function tune(db: Db): void {
  db.exec("PRAGMA synchronous = OFF");
  db.exec("PRAGMA cache_size = -16000");
}
