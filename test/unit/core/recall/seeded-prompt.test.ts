// A session ACP Threads seeded (a fork, a switch of agent, a session the agent could not load) starts with our
// history in front of the typed prompt; the agent's own transcript (indexed through the thread's link, or imported
// with the rest) has that seed in its first user message. Recall indexes the prompt, never the seed (#37 item 4).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { RecordInput, ThreadRecord } from "../../../../src/core/model/records";
import { buildSeedText, withoutSeed } from "../../../../src/core/thread/context-seed";
import { importAll, makeWorld, writeRollout } from "./helpers";

const history = [
  { kind: "user_message", messageId: "u1", text: "tune the quokka cache" },
  { kind: "agent_message", messageId: "a1", text: "the quokka cache is tuned" },
] as RecordInput[] as ThreadRecord[];

test("a seeded first prompt is indexed without the seed: its history is not found again, the prompt is", () => {
  const w = makeWorld();
  const seeded = `${buildSeedText(history)}now the zebra migration`;
  writeRollout(w, "5eed", w.repoA, [
    { role: "user", text: seeded },
    { role: "assistant", text: "migrating the zebra tables" },
  ]);
  const r = importAll(w);
  try {
    assert.equal(r.search("quokka", { repo: w.repoA }).sessions.length, 0, "the seed's history is not indexed");
    const hit = r.search("zebra", { repo: w.repoA }).sessions[0];
    assert.ok(hit, "the typed prompt is");
    assert.equal(hit.intent, "now the zebra migration", "the session's first prompt is the typed one");
  } finally {
    r.close();
    w.cleanup();
  }
});

test("withoutSeed keeps text that only looks like a seed, and a seed without its end marker", () => {
  assert.equal(withoutSeed(`${buildSeedText(history)}go on`), "go on");
  assert.equal(withoutSeed("go on"), "go on");
  const quoted = `see: ${buildSeedText(history)}go on`;
  assert.equal(withoutSeed(quoted), quoted, "a seed quoted inside a message is the person's text");
  const cut = buildSeedText(history).split("[End of restored history.")[0]!;
  assert.equal(withoutSeed(cut), cut, "no end marker: nothing is dropped");
});
