import assert from "node:assert/strict";
import { test } from "node:test";
import { stampRecord, type RecordInput } from "../../../../src/core/model/records";
import { buildSeedText, seedEntries } from "../../../../src/core/thread/context-seed";

const recs = (inputs: RecordInput[]) => inputs.map((i) => stampRecord(i));
const user = (text: string): RecordInput => ({ kind: "user_message", messageId: text, text });
const agent = (text: string): RecordInput => ({ kind: "agent_message", messageId: text, text });

test("seeding starts at the newest compaction window and keeps everything after it", () => {
  const history = recs([
    user("old question"),
    agent("old answer"),
    { kind: "compaction", windowId: "w1", summary: "summary one" },
    user("middle"),
    { kind: "compaction", windowId: "w2", summary: "summary two" },
    user("recent question"),
    agent("recent answer"),
    { kind: "compaction", windowId: null, summary: "legacy without a window" },
    user("last"),
  ]);
  const texts = seedEntries(history).map((e) => e.text);
  assert.deepEqual(texts, ["summary two", "recent question", "recent answer", "legacy without a window", "last"]);
  const seed = buildSeedText(history);
  assert.match(seed, /Summary of earlier conversation: summary two/);
  assert.ok(!seed.includes("old question"));
});

test("compactions without window ids fall back to counting from the last one by position", () => {
  const history = recs([
    user("a"),
    { kind: "compaction", windowId: null, summary: "s1" },
    user("b"),
    { kind: "compaction", windowId: null, summary: "s2" },
    user("c"),
  ]);
  assert.deepEqual(
    seedEntries(history).map((e) => e.text),
    ["s2", "c"],
  );
});

test("without compactions the newest messages are kept within the budgets", () => {
  const history = recs(Array.from({ length: 50 }, (_, i) => user(`m${i}-${"x".repeat(100)}`)));
  const byCount = seedEntries(history, { maxEntries: 10 });
  assert.equal(byCount.length, 10);
  assert.match(byCount[0]!.text, /^m40-/);
  const byChars = seedEntries(history, { maxChars: 1000 });
  assert.ok(byChars.length < 10 && byChars.at(-1)!.text.startsWith("m49-"));
});

test("an empty history gives no seed", () => {
  assert.equal(buildSeedText([]), "");
});
