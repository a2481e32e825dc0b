/** Issue #24 item 3: what the engine keeps per agent and per session stays under its caps over a long day. */
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { LAST_READ_MAX_BYTES, LastReadCache } from "../../../../src/core/acp/last-read";
import { SessionState } from "../../../../src/core/acp/session-state";
import { spawnAgent } from "../../../../src/core/acp/spawn";
import { STDERR_LINE_MAX_CHARS, StderrLines } from "../../../../src/core/acp/stderr-lines";

test("the texts the agent read are kept up to a byte cap, least recently used first out", () => {
  const session = new SessionState("s", "/w");
  const file = "x".repeat(100 * 1024); // 2k reads of 100 KB files, as in the long-day bench
  for (let i = 0; i < 2000; i++) session.lastRead.set(`/w/f${i}.ts`, file + i);
  const bytes = (session.lastRead as LastReadCache).bytes;
  assert.ok(bytes <= LAST_READ_MAX_BYTES, `kept ${bytes} bytes`);
  assert.equal(session.lastRead.get("/w/f1999.ts"), file + 1999, "the latest read is kept");
  assert.equal(session.lastRead.get("/w/f0.ts"), undefined, "the oldest read is gone");
});

test("the last-read cache keeps a text in use and never a text over the entry cap", () => {
  const cache = new LastReadCache(300, 100);
  cache.set("a", "a".repeat(50)); // 100 bytes
  cache.set("b", "b".repeat(50));
  cache.get("a"); // a is now the most recently used
  cache.set("c", "c".repeat(50));
  cache.set("d", "d".repeat(50)); // over 300: b goes, not a
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a"));
  cache.set("big", "x".repeat(51));
  assert.equal(cache.get("big"), undefined);
  assert.ok(cache.bytes <= 300);
  cache.set("a", "y");
  assert.equal(cache.get("a"), "y", "a new read replaces the old text");
});

test("stderr without a newline is cut at the line cap; the rest of that line is dropped until its newline", () => {
  const logged: string[] = [];
  const lines = new StderrLines(5, (l) => logged.push(l), 10);
  lines.push("0123456789abcdef");
  lines.push("ghij".repeat(1000));
  assert.ok(lines.partialLength <= 10);
  lines.push("tail of the long line\nnext\r\nlast");
  assert.deepEqual(logged, ["0123456789 …[cut]", "next"]);
  assert.deepEqual(lines.lines(), ["0123456789 …[cut]", "next", "last"]);
  lines.end();
  assert.deepEqual(logged.at(-1), "last");
});

test("an agent flooding stderr without newlines leaves a bounded tail", async () => {
  const flood = `process.stderr.write("e".repeat(4 * 1024 * 1024)); process.stderr.write("x\\nend")`;
  const agent = spawnAgent(
    { id: "flood", displayName: "flood", command: process.execPath, args: ["-e", flood] },
    { cwd: tmpdir() },
  );
  await agent.exited;
  const tail = agent.stderrTail();
  assert.ok(
    tail.every((l) => l.length <= STDERR_LINE_MAX_CHARS + 10),
    `longest line ${Math.max(...tail.map((l) => l.length))}`,
  );
  assert.equal(tail.at(-1), "end");
});
