// The Output channel's follower of a protocol log: traffic only at trace level and formatted only when the
// viewer shows trace; stderr and notes always, at their level.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatProtocolEntry, ProtocolLog, protocolLineSink } from "../../../../src/core/acp/protocol-log";

function viewer(tracing: () => boolean) {
  const lines: [string, string][] = [];
  return {
    lines,
    tracing,
    trace: (l: string) => lines.push(["trace", l]),
    info: (l: string) => lines.push(["info", l]),
    warn: (l: string) => lines.push(["warn", l]),
  };
}

test("traffic is neither formatted nor sent while the viewer does not show trace", () => {
  const v = viewer(() => false);
  const sink = protocolLineSink(v);
  let reads = 0;
  const entry = (direction: "send" | "recv") => {
    const e = { at: 0, direction, message: {} };
    // any formatting reads the text
    Object.defineProperty(e, "text", { get: () => (reads++, '{"jsonrpc":"2.0"}'), enumerable: true });
    return e as never;
  };
  for (let i = 0; i < 1000; i++) sink(entry(i % 2 ? "send" : "recv"));
  assert.equal(reads, 0, "the line was formatted");
  assert.deepEqual(v.lines, []);
});

test("with trace shown the traffic goes at trace level; a level change applies to the next line", () => {
  let on = true;
  const v = viewer(() => on);
  const log = new ProtocolLog();
  log.onLine(protocolLineSink(v));
  log.add("send", '{"id":1,"method":"initialize"}');
  on = false;
  log.add("recv", '{"id":1,"result":{}}');
  on = true;
  log.add("recv", '{"method":"session/update"}');
  assert.deepEqual(
    v.lines.map(([lvl, l]) => [lvl, l.slice(25)]),
    [
      ["trace", '-> {"id":1,"method":"initialize"}'],
      ["trace", '<- {"method":"session/update"}'],
    ],
  );
});

test("stderr and notes reach the viewer whatever its level: malformed lines and failed spawns as warnings", () => {
  const v = viewer(() => false);
  const log = new ProtocolLog();
  log.onLine(protocolLineSink(v));
  log.add("stderr", "agent: starting");
  log.note("skipped a line that is not JSON (8 chars)");
  log.note("spawn failed: ENOENT");
  log.note("agent exited (code 0, signal null)");
  const entries = log.entries();
  assert.deepEqual(v.lines, [
    ["info", formatProtocolEntry(entries[0]!)],
    ["warn", formatProtocolEntry(entries[1]!)],
    ["warn", formatProtocolEntry(entries[2]!)],
    ["info", formatProtocolEntry(entries[3]!)],
  ]);
});

test("the log keeps the newest entries within its caps across many drops", () => {
  const log = new ProtocolLog({ maxLines: 5, maxBytes: 50 });
  for (let i = 0; i < 5000; i++) log.add("recv", `line ${i}`); // 8–9 chars each: the line cap holds
  assert.deepEqual(
    log.entries().map((e) => e.text),
    ["line 4995", "line 4996", "line 4997", "line 4998", "line 4999"],
  );
  assert.equal(log.dropped, 4995);
  log.add("send", "x".repeat(45)); // the byte cap drops all older ones but the newest stays
  assert.deepEqual(
    log.entries().map((e) => e.text),
    ["x".repeat(45)],
  );
  assert.equal(log.dropped, 5000);
  assert.equal(log.lines().length, 1);
  assert.match(log.lines()[0]!, /^\d{4}-\d\d-\d\dT.* -> x{45}$/);
});
