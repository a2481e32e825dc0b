// The Best of N record (#35, core/worktree/best-of-record.ts + best-of-records.ts) and its resume (best-of.ts
// resumeBestOf), with real files, real git worktrees and real check commands: the record keeps the prompt's chips
// without their text or bytes; the file is written whole, mode 0600, bounded (old finished records go first); a
// corrupt file or one from a newer version is a clear error and no change writes over it; a resumed Best of N
// follows the candidates still running, runs the checks not yet run to their end, keeps the ones known, and fails
// a candidate that never got its thread.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { endedRun, resumeBestOf, type ResumedCandidate } from "../../../../src/core/worktree/best-of";
import {
  BEST_OF_KEEP,
  isOpen,
  newBestOfRecord,
  ownerGone,
  ownerHere,
  pruneRecords,
  recordedCheck,
  type BestOfRecord,
} from "../../../../src/core/worktree/best-of-record";
import { BestOfRecords } from "../../../../src/core/worktree/best-of-records";
import { expandCandidates } from "../../../../src/core/worktree/candidates";
import { createWorktree, type CreatedWorktree } from "../../../../src/core/worktree/create";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { withRepo } from "./helpers";

const specs = expandCandidates(["a", "b"]);
const record = (over: Partial<BestOfRecord> = {}): BestOfRecord => ({
  ...newBestOfRecord({ cwd: "/r", repo: "/r", base: "b".repeat(40), prompt: "p", candidates: specs }),
  ...over,
});
const decided = (r: BestOfRecord): BestOfRecord => ({
  ...r,
  candidates: r.candidates.map((c) => ({ ...c, agent: { ok: true, stopReason: "end_turn", durationMs: 1 } })),
});

test("a record keeps the prompt's chips as a thread records them: never a file's text or an image's bytes", () => {
  const r = newBestOfRecord({
    cwd: "/r",
    repo: "/r",
    base: "b",
    prompt: "look",
    parts: [
      { type: "text", text: "look " },
      { type: "context", item: { kind: "selection", label: "a.ts:1", uri: "file:///r/a.ts", content: "SECRET=1" } },
      { type: "context", item: { kind: "image", label: "i.png", uri: "x", data: new Uint8Array([1, 2]) } },
    ],
    check: "npm test",
    candidates: specs,
  });
  assert.deepEqual(r.context, [
    { kind: "selection", label: "a.ts:1", uri: "file:///r/a.ts" },
    { kind: "image", label: "i.png", uri: "x" },
  ]);
  assert.doesNotMatch(JSON.stringify(r), /SECRET/);
  assert.deepEqual(
    r.candidates.map((c) => [c.label, c.threadId, c.worktree]),
    [
      ["a#1", null, null],
      ["b#1", null, null],
    ],
  );
  assert.equal(
    recordedCheck({ command: "x", exitCode: 0, durationMs: 1, outputTail: "y".repeat(5000) }).outputTail.length,
    2000,
  );
});

test("open until every candidate ended and every worktree is decided, or the view was closed", () => {
  const r = record();
  assert.ok(isOpen(r), "running");
  const ended = decided(r);
  assert.ok(!isOpen(ended), "ended, no worktree left");
  const wt = { path: "/w", repo: "/r", base: "b", branch: null, createdAt: "" };
  const held = { ...ended, candidates: ended.candidates.map((c) => ({ ...c, worktree: wt })) };
  assert.ok(isOpen(held), "worktrees not decided yet");
  held.candidates[0]!.outcome = "applied";
  assert.ok(isOpen(held), "one left");
  held.candidates[1]!.outcome = "discarded";
  assert.ok(!isOpen(held), "all decided");
  assert.ok(!isOpen({ ...r, closedAt: "x" }), "closed by the user");
  assert.ok(!ownerGone(ownerHere()), "this process owns it");
  assert.ok(ownerGone({ ...ownerHere(), boot: 1 }), "a former process with this pid does not");
  assert.ok(ownerGone(null));
});

test("pruned to a bound: the oldest finished records go first, open ones stay while they fit", () => {
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  const rs = Array.from({ length: BEST_OF_KEEP + 5 }, (_, i) =>
    i % 2 ? record({ id: `o${i}`, createdAt: at(i) }) : decided(record({ id: `f${i}`, createdAt: at(i) })),
  );
  const kept = pruneRecords(rs);
  assert.equal(kept.length, BEST_OF_KEEP);
  const gone = rs.filter((r) => !kept.includes(r)).map((r) => r.id);
  assert.deepEqual(gone, ["f0", "f2", "f4", "f6", "f8"]);
  // more open ones than the bound: the oldest go
  const open = Array.from({ length: BEST_OF_KEEP + 2 }, (_, i) => record({ id: `o${i}`, createdAt: at(i) }));
  assert.deepEqual(
    pruneRecords(open).map((r) => r.id),
    open.slice(2).map((r) => r.id),
  );
});

test("the file: written whole with mode 0600, updated under its lock, nothing left behind", () =>
  withTmpDir("acp-bor-", async (dir) => {
    const store = new BestOfRecords(join(dir, "home", "best-of.json"));
    assert.deepEqual(await store.list(), []);
    const r = record();
    await store.add(r);
    assert.equal(statSync(store.file).mode & 0o777, 0o600);
    assert.equal(
      await store.update(r.id, (x) => {
        x.candidates[0]!.threadId = "t1";
      }),
      true,
    );
    assert.equal(await store.update("nope", () => undefined), false);
    // two writers at once: neither undoes the other
    await Promise.all([
      store.update(r.id, (x) => void (x.candidates[0]!.outcome = "applied")),
      store.update(r.id, (x) => void (x.candidates[1]!.outcome = "discarded")),
    ]);
    const back = (await store.get(r.id))!;
    assert.deepEqual(
      back.candidates.map((c) => [c.threadId, c.outcome]),
      [
        ["t1", "applied"],
        [null, "discarded"],
      ],
    );
    assert.deepEqual(readdirSync(join(dir, "home")), ["best-of.json"]);
  }));

test("a corrupt file, or one from a newer version, is a clear error and nothing writes over it", () =>
  withTmpDir("acp-bor-", async (dir) => {
    const store = new BestOfRecords(join(dir, "best-of.json"));
    for (const [text, why] of [
      ["{ not json", /not valid JSON.*move it away/],
      ['{"version":1,"runs":[{"id":3}]}', /holds a Best of N record that is not one/],
      ['{"runs":[]}', /not a Best of N record file/],
      ['{"version":99,"runs":[{"future":true}]}', /written by a newer version of ACP Threads \(version 99\)/],
    ] as const) {
      writeFileSync(store.file, text);
      await assert.rejects(store.list(), why);
      await assert.rejects(store.add(record()), why);
      await assert.rejects(
        store.update("x", () => undefined),
        why,
      );
      assert.equal(readFileSync(store.file, "utf8"), text, "nothing lost");
    }
  }));

test("resumeBestOf: follows the running, reruns a check cut short, keeps a known one, fails one never started", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const four = expandCandidates(["done", "running", "checked", "nostart"]);
    const made: CreatedWorktree[] = [];
    for (const _ of four) made.push(await createWorktree(repo, {})); // one at a time, as git's bookkeeping wants
    const [done, running, checked, nostart] = four.map((spec, i): ResumedCandidate => {
      writeFileSync(join(made[i]!.cwd, "out.txt"), `${spec.label}\n`);
      return {
        spec,
        threadId: `t${i}`,
        worktree: { ref: made[i]!.ref, cwd: made[i]!.cwd },
        startedAt: Date.now() - 5_000,
      };
    });
    done!.agent = { run: { threadId: "t0", ok: true, stopReason: "end_turn" }, durationMs: 1_234 };
    checked!.agent = { run: { threadId: "t2", ok: true }, durationMs: 10 };
    checked!.check = { command: "cat out.txt", exitCode: 3, durationMs: 1, outputTail: "known" };
    nostart!.threadId = null;
    const followed: string[] = [];
    const out = await resumeBestOf({
      candidates: [done!, running!, checked!, nostart!],
      check: "cat out.txt",
      follow: async (c) => {
        followed.push(c.spec.label);
        return { threadId: c.threadId, ok: true, stopReason: "end_turn", waitedMs: 1_000 };
      },
    });
    assert.deepEqual(followed, ["running#1"], "only the one whose end is not known");
    const by = (l: string) => out.find((s) => s.label === l)!;
    assert.equal(by("done#1").durationMs, 1_234, "its recorded time");
    assert.deepEqual([by("done#1").check?.exitCode, by("done#1").check?.outputTail], [0, "done#1\n"], "check run");
    assert.equal(by("running#1").check?.outputTail, "running#1\n");
    assert.ok(
      by("running#1").durationMs >= 3_900 && by("running#1").durationMs < 60_000,
      "from its start, less the wait",
    );
    assert.deepEqual([by("checked#1").check?.exitCode, by("checked#1").check?.outputTail], [3, "known"], "not rerun");
    assert.equal(by("nostart#1").status, "failed");
    assert.match(by("nostart#1").error!, /had not started when the window closed/);
    assert.equal(by("nostart#1").worktree, null, "its worktree, held by nothing, removed");
    assert.deepEqual(
      by("done#1").files.map((f) => f.path),
      ["out.txt"],
    );
  }));

test("endedRun: a gone run's candidate ended with its last turn, or failed when its last prompt got no end", () => {
  const at = { v: 1, seq: 0, ts: "" } as const;
  const asked = { ...at, kind: "user_message", text: "go" };
  const ended = { ...at, kind: "turn_end", stopReason: "end_turn" };
  const said = { ...at, kind: "agent_message", messageId: "m", text: "hi" };
  const run = (...rs: object[]) => endedRun("t", rs as unknown as ThreadRecord[]);
  assert.deepEqual(run(asked, said, ended, said), { threadId: "t", ok: true, stopReason: "end_turn" });
  assert.deepEqual(run(asked, ended, asked, said), {
    threadId: "t",
    ok: false,
    error: "its run ended, with the thread host, before its turn did",
  });
  assert.equal(run().ok, false);
});

test("resumeBestOf: a candidate that ended while nobody followed it keeps its own time, not the time until one looked", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const [spec] = expandCandidates(["quick"]);
    const made = await createWorktree(repo, {});
    const startedAt = Date.now() - 60 * 60_000; // picked up an hour later (`worktrees compare`, a window opened)
    const records = [
      { v: 1, seq: 0, ts: new Date(startedAt).toISOString(), kind: "user_message", text: "go" },
      { v: 1, seq: 1, ts: new Date(startedAt + 2_500).toISOString(), kind: "turn_end", stopReason: "end_turn" },
    ] as unknown as ThreadRecord[];
    assert.equal(endedRun("t", records).endedAt, startedAt + 2_500, "when its turn ended");
    const [out] = await resumeBestOf({
      candidates: [{ spec: spec!, threadId: "t", worktree: { ref: made.ref, cwd: made.cwd }, startedAt }],
      follow: async (c) => endedRun(c.threadId, records),
    });
    assert.equal(out!.durationMs, 2_500);
    assert.equal(out!.status, "done");
  }));
