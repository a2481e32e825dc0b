import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as zlib from "node:zlib";
import { packedUnsupported } from "../../../../src/core/recall/packed";
import { openRecall } from "../../../../src/core/recall/recall";
import { cli, makeWorld, writeRollout } from "./helpers";

type Zstd = (b: Buffer) => Buffer;
const compress = (zlib as unknown as { zstdCompressSync?: Zstd }).zstdCompressSync;

test("an old Node names what .jsonl.zst needs", () => {
  assert.match(packedUnsupported("v20.20.2", null)!, /Node \(v20\.20\.2\) has no zstd.*Node ≥ 22\.15/);
  assert.equal(
    packedUnsupported("v24.0.0", () => Buffer.alloc(0)),
    undefined,
  );
});

test(".jsonl.zst Codex rollouts are read where node:zlib has zstd, and reported unreadable (exit 1) where not", async () => {
  const w = makeWorld();
  try {
    writeRollout(w, "plain1", w.repoA, [{ role: "user", text: "the wombat ledger" }]);
    const plain = writeRollout(w, "packed1", w.repoA, [
      { role: "user", text: "the wombat archive, compressed" },
      { role: "assistant", text: "read from a zstd frame" },
    ]);
    const raw = readFileSync(plain);
    // without zstd in this Node the content does not matter: the file is never opened
    writeFileSync(`${plain}.zst`, compress ? compress(raw) : raw);
    rmSync(plain);
    const run = await cli(["recall", "bootstrap", "--root", w.codexRoot, "--all-history"], {
      home: w.home,
      cwd: w.repoA,
    });
    const r = openRecall(w.home);
    try {
      const found = r.search("wombat", { global: true });
      if (compress) {
        assert.equal(run.code, 0, run.err);
        assert.equal(found.sessions.length, 2, "both the plain and the compressed rollout");
        const packed = found.sessions.find((s) => s.path.endsWith(".zst"))!;
        assert.equal(packed.id, "019a0000-bbbb-7ccc-8ddd-00000packed1");
        assert.equal(r.search("zstd frame", { global: true }).sessions.length, 1);
        const again = r.importCodex({ root: w.codexRoot, allHistory: true });
        assert.deepEqual(
          [again.imported, again.unchanged],
          [0, again.files],
          "an unchanged compressed file is not read again",
        );
      } else {
        assert.equal(run.code, 1, "some files could not be read");
        assert.match(run.out, /1 unreadable/);
        assert.match(run.err, /codex_rollout: this Node \(v[\d.]+\) has no zstd/);
        assert.equal(found.sessions.length, 1, "the plain rollout is still imported");
      }
    } finally {
      r.close();
    }
  } finally {
    w.cleanup();
  }
});
