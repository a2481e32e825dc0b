import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { offChainLines } from "../../../../src/core/recall/chain";
import type { ChainNode } from "../../../../src/core/recall/model";
import { openRecall, type Recall } from "../../../../src/core/recall/recall";
import { renderSearch } from "../../../../src/core/recall/render";
import { cli, FIXTURES, makeWorld, type World } from "./helpers";

const SESSION = "7c0ffee0-2222-4333-8444-955566667777";

/** The branches fixture (a rewind, a compact boundary, an edited prompt, a write gap, a landed sub-agent line). */
function fixtureLines(w: World): string[] {
  const text = readFileSync(join(FIXTURES, "claude-branches", "proj-gamma", `${SESSION}.jsonl`), "utf8");
  return text.split("__REPO_A__").join(w.repoA).split("\n").filter(Boolean);
}

function transcriptPath(w: World): string {
  const dir = join(w.claudeRoot, "proj-gamma");
  mkdirSync(dir, { recursive: true });
  return join(dir, `${SESSION}.jsonl`);
}

/** Off-chain flag of every message whose body contains `like`. */
function flags(r: Recall, like: string): number[] {
  const db = openDatabase(r.dbPath, { readOnly: true });
  try {
    return db
      .all<{ off_chain: number }>("SELECT off_chain FROM messages WHERE body LIKE ? ORDER BY mid", `%${like}%`)
      .map((m) => m.off_chain);
  } finally {
    db.close();
  }
}

const node = (line: number, uuid: string, parent: string | null, kind: 0 | 1 | 2 = 1): ChainNode => ({
  line,
  uuid,
  parent,
  kind,
});

test("the live chain runs from the newest user/assistant line; abandoned branches are off it", () => {
  const rewound = [node(1, "a", null), node(2, "b", "a"), node(3, "c", "b"), node(4, "d", "c", 0), node(5, "e", "b")];
  assert.deepEqual(offChainLines(rewound), [3, 4], "the branch left by the rewind, its progress line too");
  const compacted = [node(1, "a", null), node(2, "x", "a"), node(3, "s", null, 2), node(4, "b", "s")];
  assert.deepEqual(offChainLines(compacted), [], "a boundary without a logical parent continues at the line before");
  const logical = [node(1, "a", null), node(2, "x", "a"), node(3, "s", "a", 2), node(4, "b", "s")];
  assert.deepEqual(offChainLines(logical), [2], "logicalParentUuid is followed across the boundary");
  const gap = [node(1, "a", null), node(2, "b", "a"), node(3, "c", "never-written")];
  assert.deepEqual(offChainLines(gap), [], "a parent that was never written is a write gap, not a branch");
  const trailing = [node(1, "a", null), node(2, "b", "a"), node(3, "p", "a", 0)];
  assert.deepEqual(offChainLines(trailing), [3], "a trailing progress line is not the leaf");
  const twice = [node(1, "a", null), node(2, "b", "a"), node(3, "b", "a")];
  assert.deepEqual(offChainLines(twice), [], "a uuid written twice is on the chain when one copy is");
  assert.deepEqual(offChainLines([node(1, "p", null, 0)]), [], "no conversation line: nothing to flag");
});

test("Claude messages on abandoned branches are indexed, flagged off_chain and shown as such", async () => {
  const w = makeWorld();
  writeFileSync(transcriptPath(w), `${fixtureLines(w).join("\n")}\n`);
  const r = openRecall(w.home);
  try {
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    assert.deepEqual(flags(r, "ttlbranchword"), [1, 1], "the prompt and answer abandoned by the rewind");
    assert.deepEqual(flags(r, "editedpromptword"), [1, 0], "an edited prompt's first version is off the chain");
    assert.deepEqual(flags(r, "livechainword"), [0, 0, 0], "the live branch, before and after the compaction");
    assert.deepEqual(flags(r, "evictionless"), [0], "tool output on the live branch");
    assert.deepEqual(flags(r, "gapbridgeword"), [0], "a write gap does not cut the chain");
    assert.deepEqual(flags(r, "sidelandedword"), [0], "a sub-agent line in the main file is not a branch");

    const found = r.search("ttlbranchword", { global: true });
    assert.equal(found.status, "ok");
    const s = found.sessions[0];
    assert.equal(s.why.off_chain_hits, 2);
    assert.equal(s.why.first_hand_hits, 0, "abandoned text is not first-hand evidence of the conversation");
    const hits = s.windows.flatMap((x) => x.messages).filter((m) => m.hit);
    assert.deepEqual(
      hits.map((m) => m.off_chain),
      [true, true],
    );
    assert.match(renderSearch(found, "markdown"), /\*\*user \(off the main branch\)\*\* #\d+/);
    assert.match(renderSearch(found, "markdown"), /\(2 off the main branch\)/);
    const live = r.search("livechainword", { global: true }).sessions[0];
    assert.equal(live.why.off_chain_hits, 0);
    const around = live.windows.flatMap((x) => x.messages);
    assert.ok(around.filter((m) => m.hit).every((m) => m.off_chain === false));
    assert.deepEqual(
      around.filter((m) => m.off_chain).map((m) => m.text),
      around.filter((m) => /ttlbranchword|first draft/.test(m.text)).map((m) => m.text),
      "context from the abandoned branch (file order puts it next to the live text) carries the flag too",
    );

    const json = await cli(["recall", "ttlbranchword", "--global", "--format", "json"], { home: w.home, cwd: w.dir });
    assert.equal(json.code, 0, json.err);
    const parsed = JSON.parse(json.out) as typeof found;
    assert.equal(parsed.sessions[0].why.off_chain_hits, 2);
    assert.ok(parsed.sessions[0].windows.flatMap((x) => x.messages).some((m) => m.hit && m.off_chain === true));
    const text = await cli(["recall", "ttlbranchword", "--global"], { home: w.home, cwd: w.dir });
    assert.match(text.out, /off the main branch/);
  } finally {
    r.close();
    w.cleanup();
  }
});

test("a session whose live conversation has the words ranks above one where only an abandoned branch has them", () => {
  const w = makeWorld();
  writeFileSync(transcriptPath(w), `${fixtureLines(w).join("\n")}\n`);
  // an older, linear session that says the same word once, on its live chain
  const other = join(w.claudeRoot, "proj-gamma", "0ld00000-2222-4333-8444-955566667777.jsonl");
  const base = { isSidechain: false, type: "user", cwd: w.repoA, sessionId: "0ld00000-2222-4333-8444-955566667777" };
  writeFileSync(
    other,
    `${JSON.stringify({
      ...base,
      parentUuid: null,
      uuid: "o-u1",
      timestamp: "2026-11-01T10:00:00.000Z",
      message: { role: "user", content: "a ttlbranchword cache for the old store" },
    })}\n`,
  );
  const r = openRecall(w.home);
  try {
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    const found = r.search("ttlbranchword", { global: true });
    assert.deepEqual(
      found.sessions.map((s) => s.id),
      ["0ld00000-2222-4333-8444-955566667777", SESSION],
      "two off-chain hits rank below one live hit, despite more hits and a newer session",
    );
  } finally {
    r.close();
    w.cleanup();
  }
});

test("incremental imports re-flag: a rewind appended later moves messages of earlier syncs off the chain", () => {
  const w = makeWorld();
  const lines = fixtureLines(w);
  const path = transcriptPath(w);
  writeFileSync(path, `${lines.slice(0, 5).join("\n")}\n`);
  const r = openRecall(w.home);
  try {
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    assert.deepEqual(flags(r, "ttlbranchword"), [0, 0], "before the rewind, that branch is the live one");

    appendFileSync(path, `${lines.slice(5).join("\n")}\n`);
    const second = r.importClaude({ root: w.claudeRoot, allHistory: true });
    assert.equal(second.imported, 1);
    assert.deepEqual(flags(r, "ttlbranchword"), [1, 1], "the rewind in the new tail flags the earlier import");
    assert.deepEqual(flags(r, "gapbridgeword"), [0]);

    // a second rewind, to the answer before the write-gap line
    const late = JSON.parse(lines[13]) as Record<string, unknown>;
    appendFileSync(
      path,
      `${JSON.stringify({
        ...late,
        type: "user",
        uuid: "g-u8",
        parentUuid: "g-a5",
        message: { role: "user", content: "rewind again: latewindword" },
      })}\n`,
    );
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    assert.deepEqual(flags(r, "gapbridgeword"), [1], "abandoned by the second rewind");
    assert.deepEqual(flags(r, "latewindword"), [0]);
    assert.deepEqual(flags(r, "ttlbranchword"), [1, 1]);
    assert.equal(r.search("gapbridgeword", { global: true }).sessions[0].why.off_chain_hits, 1, "the cache saw it");
  } finally {
    r.close();
    w.cleanup();
  }
});

test("a session whose first prompt was edited shows the edited prompt as its intent", () => {
  const w = makeWorld();
  const id = "ed170000-2222-4333-8444-955566667777";
  const rec = (uuid: string, parentUuid: string | null, type: string, content: unknown) =>
    JSON.stringify({ type, uuid, parentUuid, sessionId: id, cwd: w.repoA, message: { role: type, content } });
  const path = join(w.claudeRoot, "proj-gamma", `${id}.jsonl`);
  mkdirSync(join(w.claudeRoot, "proj-gamma"), { recursive: true });
  writeFileSync(
    path,
    [
      rec("e1", null, "user", "first wording of the firstedit question"),
      rec("e2", "e1", "assistant", [{ type: "text", text: "an answer to the first wording" }]),
      rec("e3", null, "user", "second wording of the firstedit question"),
      rec("e4", "e3", "assistant", [{ type: "text", text: "an answer to the second wording" }]),
    ].join("\n") + "\n",
  );
  const r = openRecall(w.home);
  try {
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    const s = r.recent({ global: true }).sessions.find((x) => x.id === id);
    assert.equal(s?.preview, "second wording of the firstedit question");
    assert.equal(
      r.search("firstedit", { global: true }).sessions[0].intent,
      "second wording of the firstedit question",
    );
  } finally {
    r.close();
    w.cleanup();
  }
});

test("an index from before the off-chain flag is rebuilt, never read without it", () => {
  const w = makeWorld();
  writeFileSync(transcriptPath(w), `${fixtureLines(w).join("\n")}\n`);
  const first = openRecall(w.home);
  first.importClaude({ root: w.claudeRoot, allHistory: true });
  first.close();
  const db = openDatabase(first.dbPath);
  db.exec("PRAGMA user_version = 7");
  db.close();
  const again = openRecall(w.home);
  try {
    assert.equal(again.rebuilt, true);
    assert.deepEqual(flags(again, "ttlbranchword"), [1, 1]);
  } finally {
    again.close();
    w.cleanup();
  }
});
