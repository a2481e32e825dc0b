// src/core/worktree/best-of.ts where a candidate does not get to its end the usual way, with real git and real
// check commands: a Best of N stopped while a candidate's worktree was being made starts no session there (its
// worktree goes), and a candidate whose worktree cannot be read, is gone or is not known, so its configured check
// did not run, fails saying so (never "done" with no check) — in a first run and in one picked up after a reload.
import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { resumeBestOf, runBestOf } from "../../../../src/core/worktree/best-of";
import { expandCandidates, type CandidateSpec } from "../../../../src/core/worktree/candidates";
import { createWorktree, type CreatedWorktree } from "../../../../src/core/worktree/create";
import { g, withRepo } from "./helpers";

/** Makes a worktree's `.git` point nowhere: it is there, and every git command in it fails. */
const breakWorktree = (w: { ref: { path: string } }) => writeFileSync(join(w.ref.path, ".git"), "gitdir: /nowhere\n");

test("runBestOf: stopped while a candidate's worktree is made, no session starts there and its worktree goes", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const stop = new AbortController();
    const ran: string[] = [];
    const made = new Map<string, CreatedWorktree>();
    // both candidates wait for their worktree (made one at a time); the view closes once the first one's is made,
    // while the second one's is being made
    const results = await runBestOf({
      cwd: repo,
      candidates: expandCandidates(["x"], 2),
      signal: stop.signal,
      check: "true",
      onProgress: (e) => {
        if (e.type !== "worktree") return;
        made.set(e.spec.label, e.worktree);
        if (e.spec.run === 1) stop.abort();
      },
      runCandidate: async (spec) => {
        ran.push(spec.label);
        return { threadId: `t${spec.run}`, ok: true, stopReason: "end_turn" };
      },
    });
    assert.deepEqual(ran, [], "no session started after the stop");
    assert.equal(made.size, 2, "both worktrees were made");
    for (const r of results) {
      assert.equal(r.status, "failed");
      assert.match(r.error!, /stopped before it started/);
      assert.equal(r.worktree, null);
      assert.equal(r.check, undefined, "no check after a stop");
      assert.equal(existsSync(made.get(r.label)!.ref.path), false, "its worktree removed");
    }
    assert.equal(g(repo, "worktree", "list").trim().split("\n").length, 1, "only the repository in git's list");
  }));

test("runBestOf: a worktree that cannot be read fails its candidate, saying why its check did not run", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const [broken, fine] = await runBestOf({
      cwd: repo,
      candidates: expandCandidates(["x"], 2),
      check: "true",
      runCandidate: async (spec, wt) => {
        if (spec.run === 1) breakWorktree(wt);
        return { threadId: `t${spec.run}`, ok: true, stopReason: "end_turn" };
      },
    });
    assert.equal(broken!.status, "failed", "not 'done' with no check");
    assert.match(broken!.error!, /its worktree could not be read \(.*\), so its check did not run/);
    assert.equal(broken!.check, undefined);
    assert.equal(fine!.status, "done", fine!.error);
    assert.equal(fine!.check?.exitCode, 0);
  }));

test("runBestOf: with no check, an unreadable worktree still fails its candidate (what it changed is not known)", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const [r] = await runBestOf({
      cwd: repo,
      candidates: expandCandidates(["x"], 1),
      runCandidate: async (_spec, wt) => {
        breakWorktree(wt);
        return { threadId: "t1", ok: true, stopReason: "end_turn" };
      },
    });
    assert.equal(r!.status, "failed");
    assert.match(r!.error!, /^its worktree could not be read \(.+\)$/);
  }));

test("resumeBestOf: a check left to run again whose worktree is unreadable or gone fails, saying why", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const spec = (run: number): CandidateSpec => ({ agentId: "x", name: "x", run, label: `x#${run}` });
    const base = g(repo, "rev-parse", "HEAD").trim();
    const wts = [
      await createWorktree(repo, { base }),
      await createWorktree(repo, { base }),
      await createWorktree(repo, { base }),
    ];
    breakWorktree(wts[0]!);
    rmSync(wts[1]!.ref.path, { recursive: true, force: true });
    const agent = { run: { threadId: "t", ok: true, stopReason: "end_turn" }, durationMs: 5 };
    const [unreadable, gone, fine, none] = await resumeBestOf({
      check: "true",
      candidates: [...wts, null].map((w, i) => ({
        spec: spec(i + 1),
        threadId: `t${i + 1}`,
        worktree: w && { ref: w.ref, cwd: w.cwd },
        agent: { ...agent, run: { ...agent.run, threadId: `t${i + 1}` } },
      })),
      follow: () => Promise.reject(new Error("not followed: its agent's end is recorded")),
    });
    assert.equal(unreadable!.status, "failed");
    assert.match(unreadable!.error!, /its worktree could not be read \(.*\), so its check did not run/);
    assert.equal(gone!.status, "failed");
    assert.equal(gone!.error, `its worktree ${wts[1]!.ref.path} is gone, so its check did not run`);
    assert.equal(fine!.status, "done", fine!.error);
    assert.equal(fine!.check?.exitCode, 0, "its check ran again");
    assert.equal(none!.status, "failed", "a record with a thread but no worktree");
    assert.equal(none!.error, "it has no worktree, so its check did not run");
  }));
