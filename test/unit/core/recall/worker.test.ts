import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCorpus } from "../../../../bench/recall-corpus";
import type { ImportProgress } from "../../../../src/core/recall/progress";
import { RecallWorkers } from "../../../../src/core/recall/worker/client";

const SCRIPT = join(__dirname, "..", "..", "..", "..", "dist", "recall-worker.js");

test("recall workers: an import runs in its own worker with progress; cancel stops it mid-way; searches answer meanwhile", async () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-worker-"));
  const workers = new RecallWorkers(SCRIPT, join(dir, "home"));
  try {
    const corpus = writeCorpus(join(dir, "sessions"), 6000);
    const seen: ImportProgress[] = [];
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const job = workers.import({ own: true, codex: { root: corpus.root, allHistory: true } }, (p) => {
      seen.push(p);
      if (p.source === "codex_rollout" && p.bytesDone > 0) first();
    });
    assert.equal(workers.import({ own: true }), job, "one import at a time: the running one is returned");
    await started;
    job.cancel();
    const sums = await job.done;
    const last = sums[sums.length - 1];
    assert.equal(last.source, "codex_rollout");
    assert.equal(last.cancelled, true);
    assert.ok(last.messages < corpus.messages, `stopped before the end (${last.messages} of ${corpus.messages})`);
    assert.equal(workers.importing, undefined);
    assert.ok(seen.some((p) => p.source === "codex_rollout" && p.bytes === corpus.bytes));

    const resume = workers.import({ codex: { root: corpus.root, allHistory: true } });
    const during = await workers.search(corpus.vocab.latin[0], { global: true });
    // it answers from whatever is committed at that moment (maybe nothing yet): what matters is that it answers
    assert.ok(["ok", "no_match"].includes(during.status), "a search while the import runs answers");
    const again = await resume.done;
    assert.equal(again[0].cancelled, undefined);
    const status = await workers.status();
    assert.equal(status.totals.messages, corpus.messages, "resumed: every message exactly once");
    const after = await workers.search(corpus.vocab.latin[0], { global: true });
    assert.equal(after.status, "ok");
  } finally {
    await workers.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
