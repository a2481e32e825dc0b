// Replay compares what the client sends now with the recording: capabilities added since are not divergences.
import assert from "node:assert/strict";
import { test } from "node:test";
import { firstDifference, withoutAddedCapabilities } from "../../../../src/core/bundle/compare";

const init = (clientCapabilities: Record<string, unknown>) => ({
  method: "initialize",
  params: { protocolVersion: 1, clientCapabilities },
});

test("a capability the client added since the recording is not a divergence", () => {
  const recorded = init({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
  const now = init({
    fs: { readTextFile: true, writeTextFile: true, watch: true },
    terminal: true,
    session: { configOptions: { boolean: {} } },
    elicitation: { form: {} },
  });
  assert.equal(firstDifference(recorded, withoutAddedCapabilities(recorded, now)), undefined);
});

test("a capability the client dropped or changed still is", () => {
  const recorded = init({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
  const dropped = init({ fs: { readTextFile: true, writeTextFile: true } });
  assert.equal(
    firstDifference(recorded, withoutAddedCapabilities(recorded, dropped)),
    "params.clientCapabilities.terminal",
  );
  const changed = init({ fs: { readTextFile: true, writeTextFile: false }, terminal: true });
  assert.equal(
    firstDifference(recorded, withoutAddedCapabilities(recorded, changed)),
    "params.clientCapabilities.fs.writeTextFile",
  );
});

test("messages without client capabilities pass through unchanged", () => {
  const m = { method: "session/new", params: { cwd: "/w" } };
  assert.equal(withoutAddedCapabilities(m, m), m);
});
