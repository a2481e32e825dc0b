import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { completeLines } from "../../../../src/core/recall/tail-reader";

test("complete lines are read across chunk edges, multi-byte characters intact, a torn last line left out", () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-tail-"));
  try {
    const path = join(dir, "t.jsonl");
    const lines = ["short", "登录缓存会话恢复的一行中文", "x".repeat(40), ""];
    const body = `${lines.join("\n")}\n{"torn":`;
    writeFileSync(path, body);
    const size = Buffer.byteLength(body);
    for (const chunk of [3, 7, 64, 1 << 20]) {
      const got = [...completeLines(path, 0, size, chunk)];
      assert.deepEqual(
        got.map((l) => l.text),
        lines,
        `chunk ${chunk}`,
      );
      assert.equal(got[got.length - 1].end, size - Buffer.byteLength('{"torn":'), "resumes where the torn line starts");
      const resumed = [...completeLines(path, got[0].end, size, chunk)].map((l) => l.text);
      assert.deepEqual(resumed, lines.slice(1), "a resumed read starts at the next line");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
