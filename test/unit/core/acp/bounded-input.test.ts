/** Agent-controlled sizes: line ranges read without loading the file, and NDJSON input under backpressure. */
import assert from "node:assert/strict";
import { open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { readLineRange, sliceLineRange } from "../../../../src/core/acp/line-reader";
import { createNdJsonStream } from "../../../../src/core/acp/ndjson-stream";
import { ProtocolLog } from "../../../../src/core/acp/protocol-log";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-bounded-", fn);

test("a line range is read in chunks: ten lines of a 2 GB file cost one chunk", () =>
  withTmp(async (dir) => {
    const file = join(dir, "huge");
    await writeFile(file, "a\nb\nc\nd\n");
    const fh = await open(file, "r+");
    await fh.truncate(2 * 1024 ** 3);
    await fh.close();
    const got = await readLineRange(file, { line: 2, limit: 2 });
    assert.equal(got?.text, "b\nc");
    assert.ok(got!.bytesRead <= 64 * 1024, `read ${got!.bytesRead} bytes`);
    // the whole file (a 2 GB line of zeros after line 4) is over the cap: an error naming it, after reading the cap
    await assert.rejects(readLineRange(file, { maxBytes: 1024 * 1024 }), /over 1048576 bytes/);
    assert.equal(await readLineRange(join(dir, "missing"), {}), undefined);
  }));

test("line ranges match the old in-memory slicing", () =>
  withTmp(async (dir) => {
    for (const text of ["a\nb\nc\nd", "a\nb\nc\n", "", "\n\n", "one"]) {
      const file = join(dir, "f");
      await writeFile(file, text);
      for (const [line, limit] of [
        [undefined, undefined],
        [2, undefined],
        [2, 2],
        [undefined, 1],
        [9, 1],
        [1, 0],
      ]) {
        const lines = text.split("\n");
        const start = Math.max(1, line ?? 1) - 1;
        const expected = lines.slice(start, limit != null ? start + limit : undefined).join("\n");
        const range = { line, limit };
        assert.equal((await readLineRange(file, range))?.text, expected, JSON.stringify({ text, range }));
        assert.equal(sliceLineRange(file, text, range), expected);
      }
    }
    assert.throws(() => sliceLineRange("f", "x".repeat(11), { maxBytes: 10 }), /over 10 bytes/);
  }));

test("a read of many short lines copies each chunk's lines once, not line by line, and matches the slicing", () =>
  withTmp(async (dir) => {
    const file = join(dir, "many");
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i} ${"é".repeat(i % 40)}`).join("\n") + "\n";
    await writeFile(file, text);
    const from = Buffer.from;
    let copies = 0;
    Buffer.from = ((...args: Parameters<typeof Buffer.from>) => {
      copies++;
      return (from as (...a: unknown[]) => Buffer)(...args);
    }) as typeof Buffer.from;
    let whole: string | undefined;
    try {
      whole = (await readLineRange(file, {}))?.text;
    } finally {
      Buffer.from = from;
    }
    assert.equal(whole, text);
    const chunks = Math.ceil(Buffer.byteLength(text) / (64 * 1024));
    assert.ok(copies <= chunks, `${copies} copies for ${chunks} chunks`);
    for (const [line, limit] of [
      [1, 1500],
      [1400, 900],
      [2999, 5],
      [3001, 2],
    ]) {
      const expected = sliceLineRange(file, text, { line, limit });
      assert.equal((await readLineRange(file, { line, limit }))?.text, expected, JSON.stringify({ line, limit }));
    }
  }));

test("the NDJSON reader stops reading while the SDK has not taken its queued messages", async () => {
  const input = new PassThrough();
  const { readable } = createNdJsonStream(new PassThrough(), input, { log: new ProtocolLog() });
  for (let id = 0; id < 500; id++) input.write(`{"jsonrpc":"2.0","id":${id},"result":{}}\n`);
  input.end();
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(input.readableFlowing, false, "paused: nobody reads the messages");
  const reader = readable.getReader();
  let count = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
    count++;
  }
  assert.equal(count, 500, "nothing lost once read");
});
