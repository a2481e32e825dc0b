/**
 * A bulk import on two cores (shard-import.ts, shard-plan.ts, fts-splice.ts): the real shard worker
 * (dist/shard-worker.js) against one-core imports of the same files.
 */
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCorpus } from "../../../../bench/recall-corpus";
import { openDatabase } from "../../../../src/core/db/sqlite";
import type { ImportProgress } from "../../../../src/core/recall/progress";
import { openRecall, type Recall, type SyncSummary } from "../../../../src/core/recall/recall";
import { RecallImports } from "../../../../src/core/engine/import-job";
import { workerEngine } from "../../../../src/core/engine/worker";
import { ShardJob } from "../../../../src/core/recall/shard-import";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { findFile, FIXTURES, makeWorld } from "./helpers";

const SHARD = join(repoRoot(), "dist", "shard-worker.js");
const twoCores = (home: string, shardRoundMessages?: number) =>
  openRecall(home, { shardWorker: SHARD, shardMinBytes: 1, shardRoundMessages });
const oneCore = (home: string) => openRecall(home, { shardWorker: false });
/** A shard worker that the plan never starts (too little to read), for the stale-round cleanup. */
const twoCoresIdle = (home: string) => openRecall(home, { shardWorker: SHARD, shardMinBytes: Number.MAX_SAFE_INTEGER });

function integrityCheck(dbPath: string): void {
  const db = openDatabase(dbPath);
  try {
    db.run("INSERT INTO msg_fts(msg_fts) VALUES ('integrity-check')");
  } finally {
    db.close();
  }
}

/** Every answer a user sees, minus the timing. */
function answers(r: Recall, needles: string[]) {
  const out: unknown[] = [];
  for (const n of needles)
    for (const o of [{ global: true }, { global: true, allTerms: true }, { global: true, limit: 2 }]) {
      const { elapsed_ms: _, ...rest } = r.search(n, o);
      out.push(rest);
    }
  out.push(r.recent({ global: true, limit: 50 }));
  return out;
}

/** Words of every indexed message (both cores' shares), as needles. */
function needlesOf(dbPath: string, n: number): string[] {
  const db = openDatabase(dbPath, { readOnly: true });
  try {
    const words = new Set<string>();
    for (const { body } of db.all<{ body: string }>("SELECT body FROM messages ORDER BY mid"))
      for (const w of body.split(/[\s"'`.,:;()[\]{}<>|*/\\-]+/)) if (w.length >= 4 && words.size < n) words.add(w);
    return [...words];
  } finally {
    db.close();
  }
}

function writeFork(codexRoot: string, parent: string, id: string, extra: Record<string, unknown>, text: string): void {
  const lines = readFileSync(parent, "utf8").trim().split("\n");
  const meta = JSON.parse(lines[0]) as { payload: Record<string, unknown> };
  meta.payload = { ...meta.payload, id, ...extra };
  const own = JSON.stringify({
    timestamp: "2026-11-20T12:00:00Z",
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
  });
  writeFileSync(
    join(codexRoot, `rollout-2026-11-20T12-00-00-${id}.jsonl`),
    `${[JSON.stringify(meta), ...lines.slice(1, 13), own].join("\n")}\n`,
  );
}

test("two cores answer exactly like one: forks and sub-agents with their parents, Claude sub-agent files, status", () => {
  const w = makeWorld();
  try {
    const parent = findFile(w.codexRoot, "000000000001");
    const parentId = "019a0000-aaaa-7bbb-8ccc-000000000001";
    writeFork(
      w.codexRoot,
      parent,
      "019a0000-aaaa-7bbb-8ccc-0000000000f1",
      { forked_from_id: parentId },
      "fork axolotl",
    );
    writeFork(
      w.codexRoot,
      parent,
      "019a0000-aaaa-7bbb-8ccc-0000000000f2",
      { source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } } },
      "subagent narwhal",
    );
    // a second Claude session, one with a rewind (off-chain messages)
    cpSync(join(FIXTURES, "claude-branches"), w.claudeRoot, { recursive: true });
    const two = twoCores(join(w.dir, "two"));
    const one = oneCore(join(w.dir, "one"));
    try {
      const sums = [two, one].map((r) => [
        r.importCodex({ root: w.codexRoot, allHistory: true }),
        r.importClaude({ root: w.claudeRoot, allHistory: true }),
      ]);
      assert.ok(sums[0][0].sharded && sums[0][0].sharded.files > 0, JSON.stringify(sums[0][0]));
      assert.ok(sums[0][1].sharded && sums[0][1].sharded.files > 0, JSON.stringify(sums[0][1]));
      assert.equal(sums[1][0].sharded, undefined);
      for (const k of [0, 1]) {
        assert.equal(sums[0][k].messages, sums[1][k].messages);
        assert.equal(sums[0][k].imported, sums[1][k].imported);
        assert.equal(sums[0][k].files, sums[1][k].files);
      }
      integrityCheck(two.dbPath);
      const needles = [...needlesOf(one.dbPath, 40), "axolotl", "narwhal", "axolotl|narwhal", '"rollback"'];
      assert.deepEqual(answers(two, needles), answers(one, needles));
      const counts = (r: Recall) => r.status().sources.map((s) => [s.source, s.files, s.sessions, s.messages]);
      assert.deepEqual(counts(two), counts(one));
    } finally {
      two.close();
      one.close();
    }
  } finally {
    w.cleanup();
  }
});

async function withCorpus(
  messages: number,
  fn: (dir: string, corpus: ReturnType<typeof writeCorpus>) => void | Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "recall-shard-"));
  try {
    await fn(dir, writeCorpus(join(dir, "sessions"), messages));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("progress counts both cores; a cancelled import keeps what both committed and the next one completes it", () =>
  withCorpus(4000, (dir, corpus) => {
    const needles = [corpus.vocab.latin[0], corpus.vocab.latin[2500], corpus.vocab.cjk[3], `"${corpus.vocab.cjk[0]}"`];
    const one = oneCore(join(dir, "one"));
    const two = twoCores(join(dir, "two"), 300); // the shard hands over rounds of 300 messages
    try {
      one.importCodex({ root: corpus.root, allHistory: true });
      const seen: ImportProgress[] = [];
      const stopped = two.importCodex(
        { root: corpus.root, allHistory: true },
        {
          progress: (p) => seen.push(p),
          // past a quarter of the bytes and once messages are written: a loaded machine can read a quarter (both
          // cores count) before writing any
          cancelled: () => seen.some((p) => p.bytesDone > p.bytes / 4 && p.messages > 0),
          reportEveryMs: 0,
        },
      );
      assert.equal(stopped.cancelled, true);
      assert.ok(stopped.messages < corpus.messages, `${stopped.messages} of ${corpus.messages}`);
      assert.ok(seen.every((p) => p.files === corpus.files && p.bytesDone <= p.bytes));
      integrityCheck(two.dbPath);
      assert.equal(
        // an index with nothing of a source committed has no row for it: none committed is 0
        two.status().sources.find((s) => s.source === "codex_rollout")?.messages ?? 0,
        stopped.messages,
        "what the summary says was committed is what the index has",
      );

      const progress: ImportProgress[] = [];
      const rest = two.importCodex({ root: corpus.root, allHistory: true }, { progress: (p) => progress.push(p) });
      assert.equal(rest.cancelled, undefined);
      assert.ok(rest.sharded && rest.sharded.rounds > 1, JSON.stringify(rest.sharded));
      assert.equal(stopped.messages + rest.messages, corpus.messages);
      const last = progress[progress.length - 1];
      assert.equal(last.bytesDone, last.bytes, "the last report says everything was read");
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i].bytesDone >= progress[i - 1].bytesDone);
      integrityCheck(two.dbPath);
      assert.deepEqual(answers(two, needles), answers(one, needles));
    } finally {
      one.close();
      two.close();
    }
  }));

test("a file from the second core that is replaced drops its old messages (tombstones in the moved segments)", () =>
  withCorpus(1600, (dir, corpus) => {
    const two = twoCores(join(dir, "two"));
    try {
      const sum = two.importCodex({ root: corpus.root, allHistory: true });
      assert.ok(sum.sharded, "the second core took a share");
      const db = openDatabase(two.dbPath, { readOnly: true });
      const { path } = db.get<{ path: string }>("SELECT path FROM sessions ORDER BY sid DESC LIMIT 1")!;
      db.close();
      const lines = readFileSync(path, "utf8").trim().split("\n");
      const own = JSON.stringify({
        timestamp: "2026-11-20T12:00:00Z",
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: "quetzal replaced" }] },
      });
      rmSync(path);
      writeFileSync(path, `${lines[0]}\n${own}\n`); // a new inode: read again from the start
      const again = two.importCodex({ root: corpus.root, allHistory: true });
      assert.equal(again.messages, 1);
      integrityCheck(two.dbPath);
      assert.equal(two.search("quetzal", { global: true }).matched_sessions, 1);
      const left = openDatabase(two.dbPath, { readOnly: true });
      const counts = left.get<{ n: number }>(
        "SELECT count(*) AS n FROM messages WHERE sid = (SELECT sid FROM sessions WHERE path = ?)",
        path,
      )!;
      left.close();
      assert.equal(counts.n, 1, "the replaced file's old messages are gone");
      // the moved segments still answer for every other session, and a compaction keeps that
      const before = answers(two, [corpus.vocab.latin[0], corpus.vocab.cjk[5]]);
      assert.ok(two.compactAfter(corpus.messages));
      integrityCheck(two.dbPath);
      assert.deepEqual(answers(two, [corpus.vocab.latin[0], corpus.vocab.cjk[5]]), before);
    } finally {
      two.close();
    }
  }));

test("a second core that fails says why and leaves its files to the next sync", () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-shard-fail-"));
  try {
    writeFileSync(join(dir, "not-a-dir"), "");
    const specs = [{ path: join(dir, "gone.jsonl"), source: "codex_rollout" as const }];
    const job = new ShardJob(SHARD, join(dir, "not-a-dir", "x.shard"), 10, "codex_rollout", specs, 0);
    const out = job.finish(
      join(dir, "index.sqlite"),
      () => {},
      () => false,
    );
    assert.match(out.error ?? "", /EEXIST|ENOTDIR|not a directory/i);
    assert.equal(out.rounds, 0);

    // a round a killed import left behind goes with the next import into that index
    const r = twoCoresIdle(join(dir, "home"));
    try {
      writeFileSync(`${r.dbPath}.shard-3`, "left behind");
      r.importCodex({ root: dir, allHistory: true });
      assert.equal(existsSync(`${r.dbPath}.shard-3`), false);
    } finally {
      r.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the shipped bundles find the second core: the extension's import worker and `acp-threads recall bootstrap`", () =>
  withCorpus(20_000, async (dir, corpus) => {
    const engine = workerEngine({ script: join(repoRoot(), "dist", "engine-worker.js"), home: join(dir, "ext") });
    const workers = new RecallImports(engine);
    const search = (query: string) => engine.call({ op: "recall.search", query, global: true, sync: true });
    try {
      const job = workers.import({ codex: { root: corpus.root, allHistory: true } });
      // searches answer all along: while both cores read, while the shard joins, while the index compacts
      let importing = true;
      void job.done.finally(() => (importing = false));
      let searches = 0;
      while (importing) {
        const r = await search(corpus.vocab.latin[searches % 50]);
        assert.ok(r.status === "ok" || r.status === "no_match", r.status);
        searches++;
      }
      const [sum] = await job.done;
      assert.equal(sum.messages, corpus.messages);
      assert.ok(sum.sharded && sum.sharded.messages > 0, JSON.stringify(sum));
      assert.ok(searches > 1, `${searches} searches during the import`);
      const after = await search(corpus.vocab.latin[0]);
      await job.compacted;
      assert.equal((await search(corpus.vocab.latin[0])).matched_sessions, after.matched_sessions);
    } finally {
      workers.close();
      await engine.close();
    }
    const cli = spawnSync(
      process.execPath,
      [
        join(repoRoot(), "dist", "cli.js"),
        "recall",
        "bootstrap",
        "--root",
        corpus.root,
        "--all-history",
        "--format",
        "json",
      ],
      { env: { ...process.env, ACP_THREADS_HOME: join(dir, "cli") }, encoding: "utf8" },
    );
    assert.equal(cli.status, 0, cli.stderr);
    const out = JSON.parse(cli.stdout) as SyncSummary;
    assert.equal(out.messages, corpus.messages);
    assert.ok(out.sharded && out.sharded.files > 0, cli.stdout);
    assert.ok(out.compacted, "a bulk import is compacted after the splice");
  }));
