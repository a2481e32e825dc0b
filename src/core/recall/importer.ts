/**
 * Incremental import of one transcript file. Per file the index remembers inode, size, mtime, the byte offset
 * of the last complete line, the line count and the parser's state; a re-sync reads only the new tail. A file
 * that shrank, was replaced (new inode) or was parsed by an older parser is re-read from its start.
 * A torn last line (the writer is mid-append) is left for the next sync.
 */
import { statSync } from "node:fs";
import type { Db } from "../db/sqlite";
import { markOffChain } from "./chain";
import { createClaudeParser, type ClaudeState } from "./parse-claude";
import { createCodexParser, type CodexState } from "./parse-codex";
import { createThreadParser, type ThreadState } from "./parse-thread";
import { inheritedFilter } from "./inherited";
import { isPacked, packedLines, packedUnsupported } from "./packed";
import { completeLines } from "./tail-reader";
import type { ParsedMessage, SessionMeta, SourceName, TranscriptParser } from "./model";
import type { ImportWatch } from "./progress";
import { PARSER_VERSION } from "./schema";
import { redactSecrets } from "../redact";
import { repoRoot } from "./scope";
import { oneLine } from "./text";
import type { FileRow, RecallWriter } from "./writer";
import { withoutSeed } from "../thread/context-seed";

export interface ImportSpec {
  path: string;
  source: SourceName;
  /** Fallbacks when the transcript does not say (session-archive --cwd/--session-id). */
  cwd?: string;
  sessionId?: string;
}

export interface ImportResult {
  /** "unreadable": a file this process cannot read at all (`reason` says why; nothing was written). */
  status: "unchanged" | "imported" | "missing" | "unreadable";
  reason?: string;
  messages: number;
  badLines: number;
  unknown: number;
  /** A transcript the file links to (our exec threads record where codex/claude wrote theirs). */
  linked?: string;
}

type AnyState = CodexState | ClaudeState | ThreadState;

function makeParser(spec: ImportSpec, writer: RecallWriter, state?: AnyState): TranscriptParser<AnyState> {
  if (spec.source === "codex_rollout") return createCodexParser(state as CodexState | undefined);
  if (spec.source === "acp_threads") return createThreadParser(state as ThreadState | undefined);
  const sidechainFile = /[\\/]subagents[\\/]/.test(spec.path);
  const isReplay = (id: string) =>
    writer.db.get("SELECT 1 AS x FROM messages m JOIN sessions s ON s.sid = m.sid WHERE m.ext_id = ? AND s.path <> ?", [
      id,
      spec.path,
    ]) !== undefined;
  return createClaudeParser({ sidechainFile, isReplay }, state as ClaudeState | undefined);
}

/** Session id from the file name when the transcript has none (Codex: trailing UUID; Claude: the base name). */
function idFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i.exec(base);
  return uuid ? uuid[1] : base.replace(/\.jsonl(\.zst)?$/, "");
}

/** What tells an unchanged file apart. */
type Fingerprint = Pick<FileRow, "inode" | "size" | "mtime_ms" | "parser_version" | "bad_lines" | "unknown" | "offset">;
/** Every indexed file's fingerprint: one query (and one lock) instead of one per file. */
export type Fingerprints = Map<string, Fingerprint>;

export function fingerprints(db: Db): Fingerprints {
  const rows = db.all<FileRow>(
    "SELECT path, inode, size, mtime_ms, parser_version, bad_lines, unknown, offset FROM files",
  );
  return new Map(rows.map((r) => [r.path, r]));
}

const sameFile = (prev: Fingerprint, st: { ino: number; size: number; mtimeMs: number }) =>
  prev.inode === st.ino &&
  prev.size === st.size &&
  prev.mtime_ms === st.mtimeMs &&
  prev.parser_version === PARSER_VERSION;

/** Lines between two looks at the cancel flag and the progress. */
const CHECK_LINES = 128;

export function importFile(
  writer: RecallWriter,
  spec: ImportSpec,
  known?: Fingerprints,
  watch?: ImportWatch,
): ImportResult {
  const db = writer.db;
  let st;
  try {
    st = statSync(spec.path);
  } catch {
    return { status: "missing", messages: 0, badLines: 0, unknown: 0 };
  }
  const seen = known?.get(spec.path);
  if (seen && sameFile(seen, st))
    return { status: "unchanged", messages: 0, badLines: seen.bad_lines, unknown: seen.unknown };
  const prev = db.get<FileRow>("SELECT * FROM files WHERE path = ?", spec.path);
  if (prev && sameFile(prev, st)) {
    return { status: "unchanged", messages: 0, badLines: prev.bad_lines, unknown: prev.unknown };
  }
  const packed = isPacked(spec.path);
  const cannot = packed ? packedUnsupported() : undefined;
  if (cannot) return { status: "unreadable", reason: cannot, messages: 0, badLines: 0, unknown: 0 };
  const resume =
    !packed && prev && prev.inode === st.ino && st.size >= prev.offset && prev.parser_version === PARSER_VERSION;
  const sid = prev?.sid ?? writer.newSession(spec.source, spec.path);
  if (prev && !resume) writer.dropSession(sid);
  let offset = resume ? prev.offset : 0;
  let line = resume ? prev.line : 0;
  let badLines = resume ? prev.bad_lines : 0;
  const parser = makeParser(spec, writer, resume && prev.state ? (JSON.parse(prev.state) as AnyState) : undefined);
  const unknownBase = resume ? prev.unknown : 0;
  const stats: Stats = { messages: 0, total: 0, chars: 0, lastTs: undefined, firstUser: undefined };

  /** A file row written mid-file (a batch commit) has no size, so a stopped import never looks unchanged. */
  const saveFile = (complete: boolean) =>
    writer.file({
      path: spec.path,
      source: spec.source,
      sid,
      inode: st.ino,
      size: complete ? st.size : -1,
      mtime_ms: st.mtimeMs,
      offset,
      line,
      parser_version: PARSER_VERSION,
      state: JSON.stringify(parser.state),
      unknown: unknownBase + parser.unknown,
      bad_lines: badLines,
    });
  const sessionUpdate = () => updateSession(writer, sid, spec, parser.meta(), stats);

  const keep = spec.source === "codex_rollout" ? inheritedFilter(db, parser.state as CodexState) : () => true;
  watch?.begin(spec.path, offset);
  let sinceCheck = 0;
  let nodes = 0;
  const lines = packed ? packedLines(spec.path, st.size) : completeLines(spec.path, offset, st.size);
  for (const { text, end } of lines) {
    offset = end;
    line++;
    if (watch && ++sinceCheck >= CHECK_LINES) {
      sinceCheck = 0;
      watch.at(offset, stats.total);
    }
    if (text.trim() === "") continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      badLines++;
      continue;
    }
    for (const m of parser.feed(record, line)) if (keep(m)) writeMessage(writer, sid, m, stats);
    if (parser.chain?.length) {
      for (const n of parser.chain) writer.node(sid, n);
      nodes += parser.chain.length;
      parser.chain.length = 0;
    }
    if (writer.batchFull) {
      // commit what is consistent so far: the file row points just past this line
      sessionUpdate();
      saveFile(false);
      writer.commit();
    }
  }
  watch?.reached(offset, stats.total);
  sessionUpdate();
  saveFile(true);
  // a rewind in this tail can move messages of earlier syncs off the chain: recompute from the stored links
  // (also after a stopped import: its committed batches brought links that were never walked)
  if (nodes > 0 || (resume && prev.size < 0)) markOffChain(db, sid);
  writer.maybeCommit();
  return {
    status: "imported",
    messages: stats.total,
    badLines,
    unknown: unknownBase + parser.unknown,
    linked: parser.meta().transcriptPath,
  };
}

interface Stats {
  /** Since the last session update (reset by it). */
  messages: number;
  /** New messages in this import. */
  total: number;
  chars: number;
  lastTs: number | undefined;
  firstUser: string | undefined;
}

function writeMessage(writer: RecallWriter, sid: number, m: ParsedMessage, stats: Stats): void {
  // a session ACP Threads seeded: its first prompt in the agent's transcript carries our history in front (#37)
  if (m.role === "user" && m.kind === "text") m = { ...m, content: withoutSeed(m.content) };
  stats.chars += writer.message(sid, m);
  if (m.replaceSeq === undefined) {
    stats.messages++;
    stats.total++;
  }
  if (m.ts !== undefined && (stats.lastTs === undefined || m.ts > stats.lastTs)) stats.lastTs = m.ts;
  // the preview is stored too: redacted like the body (a first prompt may paste a key)
  if (stats.firstUser === undefined && m.role === "user" && m.kind === "text")
    stats.firstUser = oneLine(redactSecrets(m.content)).slice(0, 300);
}

function updateSession(writer: RecallWriter, sid: number, spec: ImportSpec, meta: SessionMeta, stats: Stats): void {
  const cwd = meta.cwd ?? spec.cwd ?? null;
  writer.db.run(
    `UPDATE sessions SET id = ?, cwd = ?, repo = ?, started_at = coalesce(started_at, ?), title = coalesce(?, title),
       git_branch = coalesce(?, git_branch), last_ts = max(coalesce(last_ts, 0), coalesce(?, ?, 0)),
       first_user = coalesce(first_user, ?), msg_count = msg_count + ?, chars = chars + ? WHERE sid = ?`,
    [
      meta.id ?? spec.sessionId ?? idFromPath(spec.path),
      cwd,
      cwd ? repoRoot(cwd) : null,
      meta.startedAt ?? null,
      meta.title === undefined ? null : redactSecrets(meta.title),
      meta.gitBranch ?? null,
      stats.lastTs ?? null,
      meta.startedAt ?? null,
      stats.firstUser ?? null,
      stats.messages,
      stats.chars,
      sid,
    ],
  );
  stats.messages = 0;
  stats.chars = 0;
}
