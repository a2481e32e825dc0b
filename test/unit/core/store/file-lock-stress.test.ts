/**
 * The lock under load: 20 processes x 200 attempts to open one thread's writer, with holders that die holding it
 * (see lock-stress.main.ts). Exactly one writer at any time, no record lost or interleaved.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readRecords } from "../../../../src/core/store/jsonl-reader";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { startInput, withTmp, outputOf } from "./helpers";

test("stress: 20 processes x 200 attempts on one thread: one writer at a time, no record lost or interleaved", (t) =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    const before = readRecords(h.path).records.length;
    const go = join(dir, "go");
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!; // a pid that is gone
    const script = join(repoRoot(), "dist-test/unit/core/store/lock-stress.main.js");
    const children = Array.from({ length: 20 }, (_, i) =>
      spawn(process.execPath, [script, h.path, go, String(i), "200", String(dead)], {
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const outputs = children.map(outputOf);
    await new Promise((r) => setTimeout(r, 300)); // let them all start and wait at the line
    writeFileSync(go, "");
    const stats = (await Promise.all(outputs)).map(
      (out) =>
        JSON.parse(out.trim().split("\n").at(-1)!) as {
          wins: number;
          conflicts: number;
          deaths: number;
          overlaps: number;
          errors: string[];
        },
    );
    const sum = (k: "wins" | "conflicts" | "deaths" | "overlaps") => stats.reduce((n, s) => n + s[k], 0);
    t.diagnostic(`wins ${sum("wins")}, conflicts ${sum("conflicts")}, stale takeovers ${sum("deaths")}`);
    assert.deepEqual(
      stats.flatMap((s) => s.errors),
      [],
    );
    assert.equal(sum("wins") + sum("conflicts"), 20 * 200);
    assert.equal(sum("overlaps"), 0, "two writers were inside at once");
    assert.ok(sum("deaths") > 0, "stale locks were taken over");
    const read = readRecords(h.path);
    assert.equal(read.tornBytes, 0);
    assert.deepEqual(read.warnings, []);
    const ids = read.records.slice(before).map((r) => (r as { messageId: string }).messageId);
    assert.equal(ids.length, 3 * sum("wins"), "records lost");
    for (let j = 0; j < ids.length; j += 3) {
      const [c, i] = ids[j]!.split(":");
      assert.deepEqual(
        ids.slice(j, j + 3),
        [0, 1, 2].map((k) => `${c}:${i}:${k}`),
        `interleaved at record ${j}`,
      );
    }
    assert.equal(new Set(ids).size, ids.length);
  }));
