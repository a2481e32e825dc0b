import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { writeCorpus } from "../../../bench/recall-corpus";
import type { ImportProgress } from "../../../src/core/recall/progress";
import { api } from "./helpers";

describe("importing history into recall", () => {
  it("runs in a worker: the host keeps answering, progress is real, cancel stops it mid-way, a new import resumes", async () => {
    const { hub, recall } = await api();
    const dir = mkdtempSync(join(tmpdir(), "acp-host-corpus-"));
    try {
      const corpus = writeCorpus(join(dir, "sessions"), 12_000, 23);
      const plan = { codex: { root: corpus.root, allHistory: true } };
      const seen: ImportProgress[] = [];
      // the host's own event loop while the import runs: a synchronous import would not let one tick through
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      let ticksAtFirst = -1;
      let ticksAtCancel = -1;
      const { job, shown } = recall.importWithProgress(hub, plan, (p) => {
        seen.push(p);
        if (ticksAtFirst < 0) ticksAtFirst = ticks;
        if (ticksAtCancel < 0 && p.bytesDone > p.bytes * 0.4) {
          ticksAtCancel = ticks;
          job.cancel();
        }
      });
      const sums = await shown;
      delay.disable();
      clearInterval(ticker);
      const last = sums[sums.length - 1];
      assert.equal(last.cancelled, true, "cancelled part-way");
      assert.ok(last.messages > 0 && last.messages < corpus.messages, `${last.messages} of ${corpus.messages}`);
      assert.ok(seen.length >= 3, `progress reported along the way (${seen.length})`);
      assert.equal(seen[0].bytes, corpus.bytes, "the bytes to read are known from the start");
      assert.ok(seen.every((p, i) => i === 0 || p.bytesDone >= seen[i - 1].bytesDone));
      assert.ok(
        ticksAtCancel > ticksAtFirst,
        `the host's timers kept firing during the import (${ticksAtFirst} → ${ticksAtCancel})`,
      );
      console.log(
        `      import in a worker: host event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`,
      );

      const during = recall.importWithProgress(hub, plan);
      const found = await recall.search(hub, corpus.vocab.latin[0], { all: true, allTerms: false });
      assert.equal(found.type, "results", "the view's search answers while the import runs");
      const again = await during.shown;
      assert.equal(again[0].cancelled, undefined);
      assert.equal(last.messages + again[0].messages, corpus.messages, "resumed: every message exactly once");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
