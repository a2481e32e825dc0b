import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCorpus } from "../../../../bench/recall-corpus";
import { openRecall } from "../../../../src/core/recall/recall";
import type { ImportProgress } from "../../../../src/core/recall/progress";

test("an import reports real progress and stops mid-file when cancelled; the next sync resumes without loss or duplicates", () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-cancel-"));
  try {
    const corpus = writeCorpus(join(dir, "sessions"), 4000);
    const recall = openRecall(join(dir, "home"));
    try {
      const seen: ImportProgress[] = [];
      const first = recall.importCodex(
        { root: corpus.root, allHistory: true },
        {
          reportEveryMs: 0,
          progress: (p) => seen.push(p),
          // stop in the middle of a file, between two batch commits
          cancelled: () => seen.length > 0 && seen[seen.length - 1].bytesDone > corpus.bytes * 0.55,
        },
      );
      assert.equal(first.cancelled, true);
      assert.ok(seen.length > 5, `progress was reported along the way (${seen.length} reports)`);
      assert.equal(seen[0].bytes, corpus.bytes, "the bytes to read are known up front");
      for (let i = 1; i < seen.length; i++) {
        assert.ok(seen[i].bytesDone >= seen[i - 1].bytesDone, "bytes done only grow");
        assert.ok(seen[i].messages >= seen[i - 1].messages);
      }
      const last = seen[seen.length - 1];
      assert.ok(last.filesDone < last.files, "it stopped before the last file");
      const committed = recall.status().totals.messages;
      assert.equal(committed, first.messages, "the summary counts what was committed");
      assert.ok(committed > 0 && committed < corpus.messages, `part of the corpus is in (${committed})`);

      const second = recall.importCodex({ root: corpus.root, allHistory: true });
      assert.equal(second.cancelled, undefined);
      assert.equal(recall.status().totals.messages, corpus.messages, "every message exactly once");
      assert.equal(recall.search(corpus.vocab.latin[0], { global: true }).status, "ok");
    } finally {
      recall.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
