// src/core/worktree/best-of.ts + candidates.ts with real git and real check commands and a fake runCandidate:
// every candidate at once in its own worktree of one base, checks that pass / fail / time out / are missing, a
// candidate that fails to start (its worktree removed) or throws never costs the others, ranking and JSON.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { bestOfBase, runBestOf, type BestOfProgress } from "../../../../src/core/worktree/best-of";
import {
  boundAnswer,
  candidateJson,
  expandCandidates,
  rankCandidates,
  threadOutcome,
  type CandidateSpec,
} from "../../../../src/core/worktree/candidates";
import type { CreatedWorktree } from "../../../../src/core/worktree/create";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { g, withRepo } from "./helpers";

test("expandCandidates: --agent A --agent B --runs N, an agent named twice numbered on", () => {
  assert.deepEqual(
    expandCandidates(["a", "b"], 2).map((c) => c.label),
    ["a#1", "a#2", "b#1", "b#2"],
  );
  assert.deepEqual(
    expandCandidates(["codex", "codex"]).map((c) => [c.agentId, c.run]),
    [
      ["codex", 1],
      ["codex", 2],
    ],
  );
  assert.deepEqual(
    expandCandidates(["/bin/x --a", "/bin/x --b"], 1, (a) => a.split(" ")[0]!.slice(5)).map((c) => [c.label, c.name]),
    [
      ["x#1", "x"],
      ["x#2", "x"],
    ],
  );
  assert.deepEqual(
    expandCandidates(["x"], 3).map((c) => c.label),
    ["x#1", "x#2", "x#3"],
  );
});

test("threadOutcome: the last agent message (parts joined) and the usage of every turn; answers bounded", () => {
  const base = { v: 1, seq: 0, ts: "" } as const;
  const records = [
    { ...base, kind: "agent_message", messageId: "m1", text: "first" },
    { ...base, kind: "turn_end", stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } },
    { ...base, kind: "agent_message", messageId: "m2", text: "second " },
    { ...base, kind: "agent_message", messageId: "m2", text: "part" },
    {
      ...base,
      kind: "turn_end",
      stopReason: "end_turn",
      usage: { inputTokens: 5, outputTokens: 1, cachedReadTokens: 3, totalTokens: 9 },
    },
  ] as unknown as ThreadRecord[];
  assert.deepEqual(threadOutcome(records), {
    answer: "second part",
    usage: { inputTokens: 15, outputTokens: 3, cachedReadTokens: 3, totalTokens: 21 },
    costs: [],
  });
  assert.deepEqual(threadOutcome([]), { answer: "", costs: [] });
  const long = boundAnswer("x".repeat(50) + "END", 10);
  assert.equal(long.length, 10);
  assert.equal(long, "…xxxxxxEND");
});

test("bestOfBase: outside git or without a commit is a clear usage error", () =>
  withTmpDir("acp-bo-", async (dir) => {
    await assert.rejects(bestOfBase(dir), /not in a git repository: best of N runs each candidate/);
    g(dir, "init", "-q");
    await assert.rejects(bestOfBase(dir), /has no commit yet/);
  }));

/** A fake session: writes what `script[label]` says into its worktree, then reports. */
type Fake = { write?: string; fail?: "start" | "throw" | "turn"; answer?: string };

test("runBestOf: all at once in worktrees of one base; checks pass/fail/time out; failures never cost the others", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const base = g(repo, "rev-parse", "HEAD").trim();
    writeFileSync(join(repo, "a.txt"), "uncommitted\n"); // the candidates start from the commit, not from this
    const script: Record<string, Fake> = {
      "good#1": { write: "PASS\n", answer: "wrote PASS" },
      "bad#1": { write: "nope\nmore\n", answer: "wrote nope" },
      "slow#1": { write: "PASS\n" },
      "nostart#1": { fail: "start" },
      "crash#1": { fail: "throw" },
      "err#1": { write: "PASS\n", fail: "turn" },
    };
    let running = 0;
    let maxRunning = 0;
    const worktrees = new Map<string, CreatedWorktree>();
    const progress: BestOfProgress["type"][] = [];
    const specs: CandidateSpec[] = Object.keys(script).map((label) => ({
      agentId: label.split("#")[0]!,
      name: label.split("#")[0]!,
      run: 1,
      label,
    }));
    let release!: () => void;
    const allStarted = new Promise<void>((r) => (release = r));
    const results = await runBestOf({
      cwd: repo,
      candidates: specs,
      check: "grep -q PASS out.txt && { [ ! -f slow ] || sleep 300; }",
      checkTimeoutMs: 2_000,
      onProgress: (e) => progress.push(e.type),
      readThread: (id) =>
        [
          { v: 1, seq: 0, ts: "", kind: "agent_message", messageId: "m", text: `answer of ${id}` },
          {
            v: 1,
            seq: 1,
            ts: "",
            kind: "turn_end",
            stopReason: "end_turn",
            usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          },
        ] as unknown as ThreadRecord[],
      runCandidate: async (spec, wt) => {
        worktrees.set(spec.label, wt);
        running++;
        maxRunning = Math.max(maxRunning, running);
        if (maxRunning === specs.length) release();
        await allStarted; // every session is under way before any ends: they run at once
        running--;
        const f = script[spec.label]!;
        assert.equal(readFileSync(join(wt.cwd, "a.txt"), "utf8"), "a\n");
        if (f.fail === "throw") throw new Error("agent crashed: exit 7");
        if (f.fail === "start") return { threadId: null, ok: false, error: "agent failed to start" };
        if (f.write) writeFileSync(join(wt.cwd, "out.txt"), f.write);
        if (spec.label === "slow#1") writeFileSync(join(wt.cwd, "slow"), "");
        const threadId = `t-${spec.label}`;
        if (f.fail === "turn") return { threadId, ok: false, stopReason: null, error: "auth required" };
        return { threadId, ok: true, stopReason: "end_turn", ...(f.answer ? { answer: f.answer } : {}) };
      },
    });
    assert.equal(maxRunning, specs.length, "every candidate ran at once");
    const by = Object.fromEntries(results.map((r) => [r.label, r]));
    assert.deepEqual(
      results.map((r) => r.label),
      specs.map((s) => s.label),
      "in the order given",
    );
    const paths = new Set([...worktrees.values()].map((w) => w.ref.path));
    assert.equal(paths.size, specs.length, "a worktree each");
    for (const w of worktrees.values()) assert.equal(w.ref.base, base, "one base commit");

    assert.equal(by["good#1"]!.status, "done");
    assert.equal(by["good#1"]!.check?.exitCode, 0);
    assert.equal(by["good#1"]!.answer, "wrote PASS");
    assert.deepEqual(by["good#1"]!.usage, { inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    assert.deepEqual(
      by["good#1"]!.files.map((f) => [f.path, f.change, f.added]),
      [["out.txt", "added", 1]],
    );
    assert.equal(by["bad#1"]!.check?.exitCode, 1);
    assert.equal(by["bad#1"]!.added, 2);
    assert.equal(by["slow#1"]!.check?.timedOut, true, "a check past its time is killed");
    assert.equal(by["slow#1"]!.answer, "answer of t-slow#1", "the answer read from the thread");
    assert.equal(by["nostart#1"]!.status, "failed");
    assert.equal(by["nostart#1"]!.worktree, null);
    assert.equal(by["nostart#1"]!.error, "agent failed to start");
    assert.equal(existsSync(worktrees.get("nostart#1")!.ref.path), false, "a worktree no thread holds is removed");
    assert.equal(by["crash#1"]!.error, "agent crashed: exit 7");
    assert.equal(by["crash#1"]!.check, undefined);
    assert.equal(existsSync(worktrees.get("crash#1")!.ref.path), false);
    assert.equal(by["err#1"]!.status, "failed");
    assert.equal(by["err#1"]!.error, "auth required");
    assert.equal(by["err#1"]!.check?.exitCode, 0, "a thread that exists gets its check (partial work is shown)");
    assert.equal(existsSync(worktrees.get("err#1")!.ref.path), true, "a thread's worktree stays");
    assert.equal(progress.filter((t) => t === "finished").length, specs.length);

    const ranked = rankCandidates(results).map((r) => r.label);
    assert.equal(ranked[0], "good#1");
    assert.deepEqual(ranked.slice(1, 3).sort(), ["bad#1", "slow#1"]);
    assert.deepEqual(ranked.slice(3).sort(), ["crash#1", "err#1", "nostart#1"]);

    const json = candidateJson(by["good#1"]!);
    for (const k of ["threadId", "agent", "worktree", "files", "added", "removed", "check", "usage", "durationMs"])
      assert.ok(k in json, k);
    assert.equal(json.worktree, worktrees.get("good#1")!.ref.path);
    assert.equal(
      (json.check as { command: string }).command,
      "grep -q PASS out.txt && { [ ! -f slow ] || sleep 300; }",
    );
  }));

test("runBestOf: a concurrency cap runs that many at a time; an abort stops the waiting ones", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    let running = 0;
    let maxRunning = 0;
    const stop = new AbortController();
    const specs = expandCandidates(["x"], 4);
    let release!: () => void;
    const bothRunning = new Promise<void>((r) => (release = r));
    const results = await runBestOf({
      cwd: repo,
      candidates: specs,
      concurrency: 2,
      signal: stop.signal,
      runCandidate: async (spec) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        if (running === 2) {
          stop.abort(); // both running: the two waiting ones must not start
          release();
        }
        await bothRunning;
        running--;
        return { threadId: `t${spec.run}`, ok: true, stopReason: "end_turn" };
      },
    });
    assert.equal(maxRunning, 2);
    assert.deepEqual(
      results.map((r) => r.status),
      ["done", "done", "failed", "failed"],
    );
    assert.match(results[3]!.error!, /stopped before it started/);
  }));

test("runBestOf: a candidate's time waiting for the person is not its duration, so it does not lose 'fastest' (#37)", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const results = await runBestOf({
      cwd: repo,
      candidates: expandCandidates(["x"], 2),
      // #1 worked 50 ms and waited 400 ms for an answer; #2 worked 200 ms without asking
      runCandidate: async (spec) => {
        await new Promise((r) => setTimeout(r, spec.run === 1 ? 450 : 200));
        return { threadId: null, ok: true, stopReason: "end_turn", ...(spec.run === 1 ? { waitedMs: 400 } : {}) };
      },
    });
    const [first, second] = results;
    assert.ok(first!.durationMs < second!.durationMs, `${first!.durationMs} ms (own) vs ${second!.durationMs} ms`);
    assert.ok(first!.durationMs >= 50, "the time it worked still counts");
  }));
