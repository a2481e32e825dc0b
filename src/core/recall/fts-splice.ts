/**
 * Moves a shard's full-text index into the main index without re-tokenizing a word. A bulk import runs on two
 * cores by importing half of the new files into a shard file (shard-import.ts); tokenizing is what costs (CJK text
 * is mostly overlapping character pairs, ~400 ns each inside WASM FTS5), so the shard's FTS5 segments are copied as
 * they are and named in the main index's structure record, and the compaction that follows a bulk import merges
 * them with the rest.
 *
 * This writes FTS5's shadow tables in their documented on-disk format (fts5_index.c: structure record, averages
 * record, segment rowids, %_idx, %_docsize): segments are renumbered to ids the main index does not use, the
 * shard's "origins" (contentless_delete's record of which segment holds a row, for tombstones) are moved past the
 * main index's, and the shard's segments become one new level with no merge in progress. The two indexes hold
 * disjoint rowids (a shard's sessions start at a sid above every main one), so no row is in two segments.
 */
import type { Db } from "../db/sqlite";

/** An FTS5 structure record (V2: contentless_delete tables). */
interface Segment {
  segid: number;
  first: number;
  last: number;
  origin1: number;
  origin2: number;
  tombPages: number;
  tombEntries: number;
  entries: number;
}
interface Level {
  merging: number;
  segments: Segment[];
}
interface Structure {
  cookie: Uint8Array;
  writes: number;
  levels: Level[];
}

const V2 = [0xff, 0x00, 0x00, 0x01];
const STRUCTURE_ROWID = 10;
const AVERAGES_ROWID = 1;
const MAX_LEVELS = 64;
const MAX_SEGID = 0xffff;
/** %_data rowid = segid << 37 | dlidx << 36 | height << 31 | page; tombstone pages use segid + 2^16. */
const SEGID_SHIFT = 37;

/** SQLite's varint (big-endian 7-bit groups, the ninth byte whole), as FTS5 writes its records. */
export function readVarint(buf: Uint8Array, at: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[at + i];
    if (b === undefined) throw new Error("FTS5 record ends inside a varint");
    v = v * 128 + (b & 0x7f);
    if (b < 0x80) return [v, at + i + 1];
  }
  return [v * 256 + buf[at + 8], at + 9];
}

export function writeVarint(out: number[], value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`FTS5 varint out of range: ${value}`);
  if (value >= 2 ** 56) throw new Error(`FTS5 varint too large for this writer: ${value}`);
  const groups: number[] = [];
  for (let v = value; ; v = Math.floor(v / 128)) {
    groups.unshift(v % 128);
    if (v < 128) break;
  }
  groups.forEach((g, i) => out.push(i < groups.length - 1 ? g | 0x80 : g));
}

export function decodeStructure(blob: Uint8Array): Structure {
  if (blob.length < 8 || V2.some((b, i) => blob[4 + i] !== b))
    throw new Error("the full-text index is not a contentless_delete (V2) structure");
  let at = 8;
  const next = () => {
    const [v, n] = readVarint(blob, at);
    at = n;
    return v;
  };
  const nLevel = next();
  next(); // total segments: recounted on write
  const writes = next();
  const levels: Level[] = [];
  for (let l = 0; l < nLevel; l++) {
    const merging = next();
    const count = next();
    const segments: Segment[] = [];
    for (let s = 0; s < count; s++)
      segments.push({
        segid: next(),
        first: next(),
        last: next(),
        origin1: next(),
        origin2: next(),
        tombPages: next(),
        tombEntries: next(),
        entries: next(),
      });
    levels.push({ merging, segments });
  }
  if (at !== blob.length) throw new Error("the full-text index's structure record has trailing bytes");
  return { cookie: blob.slice(0, 4), writes, levels };
}

export function encodeStructure(s: Structure): Uint8Array {
  const out = [...s.cookie, ...V2];
  writeVarint(out, s.levels.length);
  writeVarint(
    out,
    s.levels.reduce((n, l) => n + l.segments.length, 0),
  );
  writeVarint(out, s.writes);
  for (const l of s.levels) {
    writeVarint(out, l.merging);
    writeVarint(out, l.segments.length);
    for (const g of l.segments)
      for (const v of [g.segid, g.first, g.last, g.origin1, g.origin2, g.tombPages, g.tombEntries, g.entries])
        writeVarint(out, v);
  }
  return Uint8Array.from(out);
}

function varints(blob: Uint8Array): number[] {
  const out: number[] = [];
  for (let at = 0; at < blob.length;) {
    const [v, n] = readVarint(blob, at);
    out.push(v);
    at = n;
  }
  return out;
}

const blobOf = (db: Db, schema: string, id: number): Uint8Array | undefined =>
  db.get<{ block: Uint8Array }>(`SELECT block FROM ${schema}.msg_fts_data WHERE id = ?`, id)?.block;

const segmentsOf = (s: Structure) => s.levels.flatMap((l) => l.segments);

/**
 * Copies the FTS index of the attached database `shard` into main's, inside the caller's write transaction.
 * The caller copies the ordinary tables; main must have no pending FTS writes on this connection.
 */
export function spliceFts(db: Db, shard: string): void {
  const mainBlob = blobOf(db, "main", STRUCTURE_ROWID);
  const shardBlob = blobOf(db, shard, STRUCTURE_ROWID);
  if (!mainBlob || !shardBlob) throw new Error("a full-text index has no structure record");
  const main = decodeStructure(mainBlob);
  const theirs = decodeStructure(shardBlob);
  const moving = segmentsOf(theirs);
  if (moving.length === 0) return; // an empty shard: no rows either

  const used = new Set(segmentsOf(main).map((g) => g.segid));
  const free: number[] = [];
  for (let id = 1; free.length < moving.length && id <= MAX_SEGID; id++) if (!used.has(id)) free.push(id);
  if (free.length < moving.length) throw new Error("the full-text index has no free segment ids");
  // the shard's origins go after every origin main has handed out (its next one is that maximum + 1)
  const shift = Math.max(0, ...segmentsOf(main).map((g) => g.origin2));

  const copyData = db.prepare(
    `INSERT INTO main.msg_fts_data(id, block) SELECT id + ((? - ?) << ${SEGID_SHIFT}), block FROM ${shard}.msg_fts_data
     WHERE (id >> ${SEGID_SHIFT}) IN (?, ? + 65536)`,
  );
  const copyIdx = db.prepare(
    `INSERT INTO main.msg_fts_idx(segid, term, pgno) SELECT ?, term, pgno FROM ${shard}.msg_fts_idx WHERE segid = ?`,
  );
  const added: Segment[] = [];
  try {
    moving.forEach((g, i) => {
      const to = free[i];
      copyData.run([to, g.segid, g.segid, g.segid]);
      copyIdx.run([to, g.segid]);
      added.push({ ...g, segid: to, origin1: g.origin1 + shift, origin2: g.origin2 + shift });
    });
  } finally {
    copyData.finalize();
    copyIdx.finalize();
  }
  db.run(
    `INSERT INTO main.msg_fts_docsize(id, sz, origin) SELECT id, sz, origin + ? FROM ${shard}.msg_fts_docsize`,
    shift,
  );

  const sum = varints(blobOf(db, "main", AVERAGES_ROWID) ?? new Uint8Array());
  varints(blobOf(db, shard, AVERAGES_ROWID) ?? new Uint8Array()).forEach((v, i) => (sum[i] = (sum[i] ?? 0) + v));
  const averages: number[] = [];
  sum.forEach((v) => writeVarint(averages, v));
  db.run("INSERT OR REPLACE INTO main.msg_fts_data(id, block) VALUES (?, ?)", [
    AVERAGES_ROWID,
    Uint8Array.from(averages),
  ]);

  // one new level, nothing merging in it (a merge in progress in the shard ended with its last step: every
  // segment, its partial output too, is complete on its own); at the level limit they join the top level
  const levels = main.levels.map((l) => ({ ...l, segments: [...l.segments] }));
  if (levels.length < MAX_LEVELS) levels.push({ merging: 0, segments: added });
  else levels[levels.length - 1].segments.push(...added);
  const structure = encodeStructure({ cookie: main.cookie, writes: main.writes + theirs.writes, levels });
  db.run("UPDATE main.msg_fts_data SET block = ? WHERE id = ?", [structure, STRUCTURE_ROWID]);
}
