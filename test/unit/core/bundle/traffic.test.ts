import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { createNdJsonStream } from "../../../../src/core/acp/ndjson-stream";
import { ProtocolLog } from "../../../../src/core/acp/protocol-log";
import { TrafficRecorder } from "../../../../src/core/bundle/traffic";
import { withTmp } from "../store/helpers";

const SID = "s1";
/** Lines an agent could send: updates, a request, a response, a key to redact, a cut line, non-JSON. */
const LINES = [
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: SID, update: { text: "héllo ✓ \u2028" } } },
  { jsonrpc: "2.0", id: 7, method: "fs/read_text_file", params: { sessionId: SID, path: "/a" } },
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: "other", update: { text: "not ours" } } },
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: SID, update: { text: "token=abcdef0123456789" } } },
  { jsonrpc: "2.0", method: "session/update", params: { sessionId: SID, update: { text: "x".repeat(70_000) } } },
].map((m) => JSON.stringify(m));

/** The traffic file of LINES through a protocol log: `viaStream` = as the transport logs them. */
async function record(dir: string, name: string, viaStream: boolean): Promise<string> {
  const log = new ProtocolLog();
  const path = join(dir, `${name}.ndjson`);
  const rec = new TrafficRecorder(path);
  rec.addSession(SID);
  rec.follow(log);
  const now = Date.now;
  Date.now = () => 1_700_000_000_000; // the same time stamps in both files
  try {
    if (viaStream) {
      const input = new PassThrough();
      const output = new PassThrough();
      const { readable, writable } = createNdJsonStream(output, input, { log, onSessionUpdate: () => true });
      const reader = readable.getReader();
      const read = reader.read();
      input.write(LINES.join("\n") + "\nnot json\n");
      await read;
      const writer = writable.getWriter();
      await writer.write({ jsonrpc: "2.0", id: 7, result: { content: "y" } } as never);
      await writer.write({
        jsonrpc: "2.0",
        id: 8,
        method: "session/new",
        params: { cwd: "/", env: [{ name: "A", value: "secret" }] },
      } as never);
    } else {
      for (const l of LINES) log.add("recv", l);
      log.add("recv", "not json");
      log.note("skipped a line that is not JSON (8 chars)");
      log.add("send", JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: "y" } }));
      log.add(
        "send",
        JSON.stringify({
          jsonrpc: "2.0",
          id: 8,
          method: "session/new",
          params: { cwd: "/", env: [{ name: "A", value: "secret" }] },
        }),
      );
    }
  } finally {
    Date.now = now;
  }
  await rec.close();
  return readFile(path, "utf8");
}

test("the traffic recorder writes the same file from the transport's messages as from the log's lines", () =>
  withTmp(async (dir) => {
    const fromLines = await record(dir, "lines", false);
    const fromStream = await record(dir, "stream", true);
    assert.equal(fromStream, fromLines);
    assert.doesNotMatch(fromLines, /abcdef0123456789|"secret"/);
    assert.match(fromLines, /chars, cut\]/);
    assert.doesNotMatch(fromLines, /not ours/);
  }));

test("the traffic recorder does not parse again a line the transport had as an object", () =>
  withTmp(async (dir) => {
    const log = new ProtocolLog();
    const rec = new TrafficRecorder(join(dir, "t.ndjson"));
    rec.addSession(SID);
    rec.follow(log);
    const parse = JSON.parse;
    let parses = 0;
    JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
      parses++;
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      for (let i = 0; i < 100; i++) {
        const m = { jsonrpc: "2.0", method: "session/update", params: { sessionId: SID, update: { text: `${i}` } } };
        log.add("recv", JSON.stringify(m), m);
      }
    } finally {
      JSON.parse = parse;
    }
    await rec.close();
    assert.equal(parses, 0);
    assert.equal((await readFile(join(dir, "t.ndjson"), "utf8")).trim().split("\n").length, 100);
  }));
