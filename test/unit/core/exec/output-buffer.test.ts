import assert from "node:assert/strict";
import { test } from "node:test";
import { HeadTailBuffer, readSlice } from "../../../../src/core/exec/output-buffer";
import { RunLogReader, RunLogWriter } from "../../../../src/core/exec/run-log";
import { tempDir } from "./helpers";

function feed(sink: { append(b: Buffer): void }, text: string, chunk: number): void {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) sink.append(bytes.subarray(i, i + chunk));
}

test("a small output is kept whole and read back from any cursor", () => {
  const buf = new HeadTailBuffer(16, 32);
  feed(buf, "hello world", 3);
  assert.equal(buf.total, 11);
  assert.equal(readSlice(buf, 0, 100, true).text, "hello world");
  const slice = readSlice(buf, 6, 100, true);
  assert.deepEqual([slice.text, slice.start, slice.next, slice.gap], ["world", 6, 11, undefined]);
});

test("a long output keeps head and tail and reports the dropped middle as a gap", () => {
  const buf = new HeadTailBuffer(10, 20);
  const text = Array.from({ length: 100 }, (_, i) => String(i % 10)).join("");
  feed(buf, text, 7);
  assert.equal(buf.total, 100);
  const head = readSlice(buf, 0, 1000, true);
  assert.equal(head.text, text.slice(0, 10));
  assert.equal(head.next, 10);
  const rest = readSlice(buf, head.next, 1000, true);
  assert.deepEqual(rest.gap, { from: 10, to: 80 });
  assert.equal(rest.text, text.slice(80));
  assert.equal(rest.next, 100);
});

test("one chunk bigger than the whole buffer still leaves its end in the tail", () => {
  const buf = new HeadTailBuffer(4, 8);
  buf.append(Buffer.from("abcdefghijklmnopqrstuvwxyz"));
  assert.equal(buf.total, 26);
  assert.equal(readSlice(buf, 0, 100, true).text, "abcd");
  assert.equal(readSlice(buf, 4, 100, true).text, "stuvwxyz");
});

test("reads never split a multi-byte character while the run is still going", () => {
  const buf = new HeadTailBuffer(64, 64);
  const euro = Buffer.from("a€");
  buf.append(euro.subarray(0, 2));
  const first = readSlice(buf, 0, 100, false);
  assert.equal(first.text, "a");
  assert.equal(first.next, 1);
  buf.append(euro.subarray(2));
  assert.equal(readSlice(buf, first.next, 100, false).text, "€");
});

test("a cursor walk across head and tail in small steps sees every kept byte once", () => {
  const buf = new HeadTailBuffer(5, 50);
  const text = "0123456789abcdefghij";
  feed(buf, text, 3);
  let cursor = 0;
  let seen = "";
  while (cursor < buf.total) {
    const slice = readSlice(buf, cursor, 4, true);
    seen += slice.text;
    cursor = slice.next;
  }
  assert.equal(seen, text);
});

test("the on-disk log keeps the head and the latest tail segments and reads like the memory buffer", () => {
  const { dir, cleanup } = tempDir();
  try {
    const writer = new RunLogWriter(dir, "r1", 10, 40);
    const text = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    feed(writer, text, 13);
    writer.close();
    const reader = new RunLogReader(dir, "r1");
    assert.equal(reader.total, 1000);
    assert.equal(readSlice(reader, 0, 100, true).text, text.slice(0, 10));
    const tail = readSlice(reader, 10, 10_000, true);
    assert.ok(tail.gap, "the middle was dropped");
    assert.equal(tail.text, text.slice(tail.start));
    assert.ok(1000 - tail.start >= 20 && 1000 - tail.start <= 40, `tail keeps 20..40 bytes, kept ${1000 - tail.start}`);
  } finally {
    cleanup();
  }
});

test("the on-disk log survives a single chunk far larger than the tail", () => {
  const { dir, cleanup } = tempDir();
  try {
    const writer = new RunLogWriter(dir, "r2", 8, 16);
    writer.append(Buffer.from("x".repeat(1000) + "THE-END"));
    writer.close();
    const reader = new RunLogReader(dir, "r2");
    assert.equal(reader.total, 1007);
    const tail = readSlice(reader, 8, 1000, true);
    assert.ok(tail.text.endsWith("THE-END"));
  } finally {
    cleanup();
  }
});
