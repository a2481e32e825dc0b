// src/core/worktree/candidates.ts: a candidate's cost (what its agent reported, summed over the thread per
// currency, as the usage ledger counts it) in its summary, the JSON and the CLI table; and which candidate leads
// and why ("best" only for a reason beyond speed, "fastest" among equals), as the CLI and the compare view say it.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ThreadRecord } from "../../../../src/core/model/records";
import {
  candidateJson,
  leaderOf,
  rankCandidates,
  summarize,
  threadOutcome,
  type CandidateSummary,
} from "../../../../src/core/worktree/candidates";
import { compareTable } from "../../../../src/cli/worktrees/compare";

const base = { v: 1, seq: 0, ts: "2026-11-26T00:00:00.000Z" } as const;
const start = {
  ...base,
  kind: "thread_start",
  threadId: "t1",
  agent: { id: "claude", name: "Claude" },
  mode: "session",
  cwd: "/w",
  repoRoot: null,
  gitHead: null,
};
const usage = (amount: number, currency = "USD") => ({
  ...base,
  kind: "usage",
  used: 10,
  size: 100,
  cost: { amount, currency },
});
const turnEnd = {
  ...base,
  kind: "turn_end",
  stopReason: "end_turn",
  usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
};

test("threadOutcome: the cost the agent reported, its cumulative figures turned into a sum per currency", () => {
  const records = [
    start,
    { ...base, kind: "session_open", agentSessionId: "s1", origin: "new" },
    usage(0.01),
    turnEnd,
    usage(0.025), // cumulative: this turn cost 0.015
    turnEnd,
    { ...base, kind: "session_open", agentSessionId: "s2", origin: "load" }, // a new agent process starts from 0
    usage(0.005),
    usage(2, "credits"),
    turnEnd,
  ] as unknown as ThreadRecord[];
  const out = threadOutcome(records);
  assert.deepEqual(out.costs, [
    { currency: "USD", amount: 0.03 },
    { currency: "credits", amount: 2 },
  ]);
  assert.equal(out.usage?.totalTokens, 12);
  assert.deepEqual(threadOutcome([start, turnEnd] as unknown as ThreadRecord[]).costs, [], "no cost reported: none");
});

const spec = (label: string) => ({ agentId: label, name: label, run: 1, label });

function candidate(
  label: string,
  o: { ok?: boolean; exitCode?: number; files?: number; durationMs: number; records?: ThreadRecord[] },
): CandidateSummary {
  const files = Array.from({ length: o.files ?? 0 }, (_, i) => ({
    path: `f${i}`,
    change: "added" as const,
    added: 1,
    removed: 0,
  }));
  return summarize(spec(label), {
    run: { threadId: `t-${label}`, ok: o.ok ?? true, stopReason: "end_turn" },
    worktree: { path: `/wt/${label}`, repo: "/repo", base: "abc", createdAt: base.ts },
    state: { exists: true, head: "abc", ahead: 0, files, added: files.length, removed: 0 },
    ...(o.exitCode === undefined
      ? {}
      : {
          check: {
            command: "npm test",
            exitCode: o.exitCode,
            durationMs: 5,
            outputTail: "",
          },
        }),
    durationMs: o.durationMs,
    ...(o.records ? { records: o.records } : {}),
  });
}

test("summarize, candidateJson, compareTable: the cost of each candidate (none: '-', JSON null)", () => {
  const paid = candidate("claude#1", {
    durationMs: 2000,
    files: 1,
    records: [start, usage(0.0213), turnEnd] as unknown as ThreadRecord[],
  });
  const free = candidate("codex#1", { durationMs: 1000, files: 1 });
  assert.deepEqual(paid.costs, [{ currency: "USD", amount: 0.0213 }]);
  assert.deepEqual(free.costs, []);
  assert.deepEqual(candidateJson(paid).cost, [{ currency: "USD", amount: 0.0213 }]);
  assert.equal(candidateJson(free).cost, null);
  const lines = compareTable(rankCandidates([paid, free])).split("\n");
  assert.match(lines[0]!, /^ +CANDIDATE +STATUS +FILES +\+\/- +CHECK +TOKENS +COST +TIME$/);
  assert.match(lines[1]!, /^ +codex#1 .* - +- +1s$/);
  assert.match(lines[2]!, /^ +claude#1 .* 4 +\$0\.02 +2s$/);
});

test("leaderOf: 'best' only for a reason beyond speed, 'fastest' among equals, nothing when none finished", () => {
  const lead = (...cs: CandidateSummary[]) => leaderOf(rankCandidates(cs));
  // both changed nothing and neither has a check: the faster is not the better
  assert.deepEqual(lead(candidate("a#1", { durationMs: 900 }), candidate("b#1", { durationMs: 100 })), {
    label: "b#1",
    kind: "fastest",
    why: "same result, faster",
  });
  // both passed: still only the fastest
  assert.equal(
    lead(candidate("a#1", { durationMs: 900, exitCode: 0 }), candidate("b#1", { durationMs: 100, exitCode: 0 }))?.kind,
    "fastest",
  );
  // a passed check beats a faster failed one
  assert.deepEqual(
    lead(
      candidate("a#1", { durationMs: 900, exitCode: 0, files: 1 }),
      candidate("b#1", { durationMs: 100, exitCode: 1 }),
    ),
    { label: "a#1", kind: "best", why: "its check passed" },
  );
  // finished beats failed
  assert.deepEqual(lead(candidate("a#1", { durationMs: 900 }), candidate("b#1", { durationMs: 100, ok: false })), {
    label: "a#1",
    kind: "best",
    why: "the other failed",
  });
  assert.equal(
    lead(candidate("a#1", { durationMs: 9, ok: false }), candidate("b#1", { durationMs: 1, ok: false })),
    undefined,
  );
  assert.equal(lead(candidate("a#1", { durationMs: 9 })), undefined, "one candidate: nothing to compare");
  // the CLI says the same
  const table = compareTable(
    rankCandidates([candidate("a#1", { durationMs: 900 }), candidate("b#1", { durationMs: 100 })]),
  );
  assert.match(table, /\nfastest: b#1 \(same result, faster\)\n/);
  assert.doesNotMatch(table, /\nbest: /);
});
