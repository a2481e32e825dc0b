import assert from "node:assert/strict";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { AsyncAppender } from "../../../../src/core/store/async-appender";
import { withTmp } from "./helpers";

test("an appender queues strings as they are (no Buffer per write) and writes them whole, rotating by bytes", () =>
  withTmp(async (dir) => {
    const path = join(dir, "a.ndjson");
    const rotated = join(dir, "a.1.ndjson");
    const out = new AsyncAppender(path, { rotateAt: 100, rotatedPath: () => rotated });
    const from = Buffer.from;
    let buffers = 0;
    Buffer.from = ((...args: unknown[]) => {
      buffers++;
      return (from as (...a: unknown[]) => Buffer)(...args);
    }) as typeof Buffer.from;
    const lines = Array.from({ length: 30 }, (_, i) => `${i} é✓\n`);
    try {
      for (const l of lines.slice(0, 29)) out.write(l);
    } finally {
      Buffer.from = from;
    }
    // the first write starts the drain, which takes it at once; the others only queue
    assert.ok(buffers <= 1, `${buffers} Buffers made by 29 writes`);
    out.write(Buffer.from(lines[29]!));
    await out.close();
    const current = await readFile(path, "utf8");
    const old = await readFile(rotated, "utf8");
    assert.ok(Buffer.byteLength(current) <= 100 && Buffer.byteLength(old) <= 100);
    // the two files hold the last lines in order, each line whole
    assert.ok((old + current).endsWith(lines.slice(-5).join("")));
    for (const l of (old + current).split("\n").slice(0, -1)) assert.match(l, /^\d+ é✓$/);
  }));

test("an appender past its pending cap drops writes and notes them in the file", () =>
  withTmp(async (dir) => {
    const path = join(dir, "b.ndjson");
    const out = new AsyncAppender(path, { maxPending: 10, dropNote: (n) => `dropped ${n}\n` });
    out.write("aaaa\n"); // taken at once by the drain
    assert.equal(out.write("bbbb\n"), true);
    assert.equal(out.write("cccccc\n"), false, "5 + 7 bytes pending is over the cap");
    await out.flush();
    out.write("after\n");
    await out.close();
    assert.equal(await readFile(path, "utf8"), "aaaa\ndropped 1\nbbbb\nafter\n");
    assert.equal(out.dropped, 1);
  }));

test("writeLine adds the newline in the file; lines, strings and buffers keep their order", () =>
  withTmp(async (dir) => {
    const path = join(dir, "c.ndjson");
    const out = new AsyncAppender(path);
    out.writeLine("one é");
    out.write("two ");
    out.write(Buffer.from("✓\n"));
    out.writeLine("");
    out.writeLine("three");
    await out.close();
    assert.equal(await readFile(path, "utf8"), "one é\ntwo ✓\n\nthree\n");
  }));

test("with lingerMs, lines queued one at a time go out in one write; flush and close do not wait for the linger", () =>
  withTmp(async (dir) => {
    const path = join(dir, "l.ndjson");
    const out = new AsyncAppender(path, { lingerMs: 60_000 });
    // FileHandle is not exported: count writes on its prototype
    const probe = await open(join(dir, "probe"), "w");
    const FileHandle = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => unknown };
    await probe.close();
    const write = FileHandle.write;
    let writes = 0;
    FileHandle.write = function (this: unknown, ...a: unknown[]) {
      writes++;
      return write.apply(this, a);
    };
    try {
      for (let i = 0; i < 5; i++) {
        out.writeLine(`line ${i}`);
        await new Promise((r) => setImmediate(r));
      }
      assert.equal(writes, 0, "nothing written within the linger");
      await out.flush();
      assert.equal(writes, 1, "five lines, one write");
      assert.equal(await readFile(path, "utf8"), "line 0\nline 1\nline 2\nline 3\nline 4\n");
      out.writeLine("last");
      await out.close();
      assert.equal(await readFile(path, "utf8"), "line 0\nline 1\nline 2\nline 3\nline 4\nlast\n");
    } finally {
      FileHandle.write = write;
    }
  }));
