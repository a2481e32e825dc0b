import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { writeCorpus } from "../../../../bench/recall-corpus";
import { openRecall } from "../../../../src/core/recall/recall";
import { RecallImports } from "../../../../src/core/engine/import-job";
import { workerEngine } from "../../../../src/core/engine/worker";
import { acquireLock } from "../../../../src/core/store/file-lock";

const SCRIPT = join(__dirname, "..", "..", "..", "..", "dist", "engine-worker.js");

function withCorpus(
  messages: number,
  fn: (dir: string, corpus: ReturnType<typeof writeCorpus>) => Promise<void> | void,
) {
  const dir = mkdtempSync(join(tmpdir(), "recall-compact-"));
  return Promise.resolve()
    .then(() => fn(dir, writeCorpus(join(dir, "sessions"), messages)))
    .finally(() => rmSync(dir, { recursive: true, force: true }));
}

test("compaction after a bulk import merges the index into one segment, answers stay the same, it stops when asked", () =>
  withCorpus(6000, (dir, corpus) => {
    const recall = openRecall(join(dir, "home"));
    try {
      const sum = recall.importCodex({ root: corpus.root, allHistory: true });
      assert.equal(sum.messages, corpus.messages);
      const needles = [
        corpus.vocab.latin[0],
        corpus.vocab.latin[2500],
        corpus.vocab.cjk[3],
        `"${corpus.vocab.cjk[0]}"`,
      ];
      const answers = () =>
        needles.map((n) => {
          const r = recall.search(n, { global: true, limit: 5 });
          return { matched: r.matched_sessions, sessions: r.sessions.map((s) => [s.id, s.why, s.windows]) };
        });
      const before = answers();

      let asked = 0;
      const stopped = recall.compactAfter(sum.messages, { cancelled: () => asked++ >= 1 });
      assert.ok(stopped, "a bulk import is compacted");
      assert.ok(stopped.segments_before > 2, `the import left ${stopped.segments_before} segments`);
      assert.equal(stopped.steps, 1);
      assert.equal(stopped.stopped, true);
      assert.deepEqual(answers(), before, "a compaction stopped half-way answers the same");

      // a bulk import another process announces (its marker) stops it before its next step
      const marker = join(`${recall.dbPath}.importers`, `${process.ppid}-other-0`);
      mkdirSync(dirname(marker), { recursive: true });
      writeFileSync(marker, "");
      const gaveWay = recall.compactAfter(sum.messages);
      assert.deepEqual([gaveWay?.steps, gaveWay?.stopped], [0, true]);
      rmSync(marker);

      // a holder of the import lock is no reason to stop: the sync of our own threads before every search takes it
      const release = acquireLock(`${recall.dbPath}.import`);
      let done;
      try {
        done = recall.compactAfter(sum.messages)!;
      } finally {
        release();
      }
      assert.equal(done.segments_after, 1);
      assert.equal(done.stopped, undefined);
      assert.deepEqual(answers(), before, "the compacted index answers the same");
      assert.equal(recall.compactAfter(sum.messages), undefined, "one segment: nothing to do");
      assert.equal(recall.compactAfter(10), undefined, "a tail sync is no bulk import");
      assert.equal(recall.compactAfter(0), undefined);
    } finally {
      recall.close();
    }
  }));

test("the extension's import worker compacts after a bulk import; searches answer meanwhile", () =>
  withCorpus(6000, async (dir, corpus) => {
    const engine = workerEngine({ script: SCRIPT, home: join(dir, "home") });
    const workers = new RecallImports(engine);
    const search = (query: string) => engine.call({ op: "recall.search", query, global: true, sync: true });
    try {
      const job = workers.import({ codex: { root: corpus.root, allHistory: true } });
      const [sum] = await job.done;
      assert.equal(sum.messages, corpus.messages);
      assert.equal(workers.importing, undefined, "the import is over; the compaction is upkeep");
      const during = await search(corpus.vocab.latin[0]);
      assert.equal(during.status, "ok");
      const compacted = await job.compacted;
      assert.ok(
        compacted && compacted.segments_before > 2 && compacted.segments_after === 1,
        JSON.stringify(compacted),
      );
      assert.equal((await search(corpus.vocab.latin[0])).matched_sessions, during.matched_sessions);

      const cancelled = workers.import({ codex: { root: corpus.root, allHistory: true } });
      cancelled.cancel();
      await cancelled.done;
      assert.equal(await cancelled.compacted, undefined, "nothing new, nothing to compact");
    } finally {
      workers.close();
      await engine.close();
    }
  }));
