import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { withIndex, writeRollout } from "./helpers";

test("an exact word finds its session in the current repo, with the ranking reasons", () => {
  withIndex((w, r) => {
    const res = r.search("websocket", { repo: w.repoA });
    assert.equal(res.status, "ok");
    assert.equal(res.sessions[0].source, "claude_code_jsonl");
    assert.deepEqual(res.sessions[0].why.terms_matched, ["websocket"]);
    assert.equal(res.sessions[0].why.same_repo, true);
    assert.ok(res.sessions[0].windows[0].messages.some((m) => m.hit && m.role === "user"));
    assert.equal(res.schema_version, 1);
  });
});

test("scope is the repo of the cwd: other repos need --global, and worktrees map to their main repo", () => {
  withIndex((w, r) => {
    assert.equal(r.search("webpack", { repo: w.repoA }).status, "no_match", "no silent fallback to global");
    assert.equal(r.search("webpack", { global: true }).sessions.length, 1);
    const wt = join(w.worktree, "pkg");
    writeRollout(w, "wt1", wt, [{ role: "user", text: "worktree narwhal question" }]);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    const res = r.search("narwhal", { repo: w.repoA });
    assert.equal(res.sessions.length, 1);
    assert.equal(res.sessions[0].repo, w.repoA);
  });
});

test("2-char Chinese needles match at index speed; longer ones are phrases; 1-char falls back to a scan", () => {
  withIndex((w, r) => {
    assert.equal(r.search("登录", { repo: w.repoA }).sessions.length, 1);
    assert.equal(r.search("数据库迁移", { repo: w.repoA }).sessions.length, 1);
    assert.equal(r.search("会话", { repo: w.repoA }).sessions[0].source, "claude_code_jsonl");
    const one = r.search("库", { repo: w.repoA });
    assert.equal(one.sessions.length, 1, "a single CJK char is found by scanning the scope");
    // "数据，据库" holds the bigrams of 数据库 on both sides of a separator: confirmation rejects it
    writeRollout(w, "cjk1", w.repoB, [{ role: "user", text: "修复数据，据库很好" }]);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    assert.equal(r.search("数据库", { repo: w.repoB }).status, "no_match");
    assert.equal(r.search("ＷＥＢＳＯＣＫＥＴ", { repo: w.repoA }).status, "ok", "full-width input is normalized");
  });
});

test("several needles: all in one session first, any of them as a fallback; | and --all-terms and phrases", () => {
  withIndex((w, r) => {
    const strict = r.search("rollback 登录", { repo: w.repoA });
    assert.deepEqual(
      [strict.mode, strict.fallback, strict.sessions.length],
      ["all", false, 1],
      "terms in different messages of one session",
    );
    const fallback = r.search("websocket webpack", { global: true });
    assert.deepEqual([fallback.mode, fallback.fallback, fallback.sessions.length], ["any", true, 2]);
    assert.equal(r.search("websocket webpack", { global: true, allTerms: true }).status, "no_match");
    const or = r.search("websocket|webpack", { global: true });
    assert.deepEqual([or.mode, or.sessions.length], ["alternatives", 2]);
    assert.equal(r.search('"migration rollback"', { repo: w.repoA }).status, "ok");
    assert.equal(r.search('"rollback migration"', { repo: w.repoA }).status, "no_match");
  });
});

test("ranking prefers more distinct terms, then first-hand hits, and is deterministic", () => {
  withIndex((w, r) => {
    writeRollout(w, "rank1", w.repoA, [{ role: "user", text: "backoff only, nothing else" }]);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    const a = r.search("backoff|reconnect", { repo: w.repoA, limit: 5 });
    assert.equal(a.sessions[0].why.distinct_terms, 2);
    assert.ok(a.sessions.length >= 2);
    assert.ok(a.sessions[a.sessions.length - 1].why.distinct_terms <= a.sessions[0].why.distinct_terms);
    const b = r.search("backoff|reconnect", { repo: w.repoA, limit: 5 });
    assert.deepEqual(
      b.sessions.map((s) => s.id),
      a.sessions.map((s) => s.id),
    );
  });
});

test("windows take messages around the hit, merge when they overlap, and split when far apart", () => {
  withIndex((w, r) => {
    const msgs = Array.from({ length: 30 }, (_, i) => ({
      role: (i % 2 ? "assistant" : "user") as "user" | "assistant",
      text: `filler message ${i}`,
    }));
    msgs[3].text = "first okapi mention";
    msgs[5].text = "second okapi mention";
    msgs[25].text = "late okapi mention";
    writeRollout(w, "win1", w.repoB, msgs);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    const res = r.search("okapi", { repo: w.repoB, windowsPerSession: 3, before: 1, after: 1 });
    const wins = res.sessions[0].windows;
    assert.deepEqual(
      wins.map((x) => [x.from_seq, x.to_seq]),
      [
        [2, 6],
        [24, 26],
      ],
      "3±1 and 5±1 merge; 25±1 stands alone",
    );
    assert.deepEqual(
      wins[0].messages.map((m) => m.seq),
      [2, 3, 4, 5, 6],
    );
    const two = r.search("okapi", { repo: w.repoB, windowsPerSession: 1, before: 0, after: 0 });
    assert.deepEqual(
      two.sessions[0].windows.map((x) => [x.from_seq, x.to_seq]),
      [[3, 3]],
    );
  });
});

test("budgets cut long messages around the hit and cap the total", () => {
  withIndex((w, r) => {
    const long = `${"lorem ipsum ".repeat(400)} the capybara clue ${"dolor sit ".repeat(400)}`;
    writeRollout(w, "bud1", w.repoB, [
      { role: "user", text: long },
      { role: "assistant", text: "short reply about capybara" },
    ]);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    const res = r.search("capybara", { repo: w.repoB, messageChars: 200 });
    const hit = res.sessions[0].windows[0].messages[0];
    assert.ok(hit.text.includes("capybara clue"), "the cut keeps the hit");
    assert.ok(hit.text.startsWith("…") && hit.text.endsWith("…"));
    assert.ok(hit.text.length <= 202);
    assert.equal(res.truncated, true);
    const tiny = r.search("rollback|websocket|capybara", { global: true, budgetChars: 300, limit: 3 });
    const total = tiny.sessions
      .flatMap((s) => s.windows.flatMap((x) => x.messages))
      .reduce((n, m) => n + m.text.length, 0);
    assert.ok(total <= 300 + 6, `total ${total} within the budget`);
    assert.ok(
      tiny.sessions.every((s) => s.windows.some((x) => x.messages.some((m) => m.hit))),
      "every session keeps a hit",
    );
  });
});

test("tool messages get the smaller budget and harness text is not shown as context", () => {
  withIndex((w, r) => {
    const res = r.search("rollback", { repo: w.repoA, toolMessageChars: 50, before: 10, after: 10 });
    const codex = res.sessions.find((s) => s.source === "codex_rollout")!;
    const msgs = codex.windows.flatMap((x) => x.messages);
    assert.ok(msgs.filter((m) => m.role === "tool").every((m) => m.text.length <= 52));
    assert.ok(!msgs.some((m) => m.role === "developer"));
  });
});

test("--recent lists sessions with the first real user message as the preview", () => {
  withIndex((w, r) => {
    const recent = r.recent({ repo: w.repoA });
    const codex = recent.sessions.find((s) => s.source === "codex_rollout")!;
    assert.equal(codex.preview, "Fix the flaky migration rollback in the sqlite store");
    assert.ok(recent.sessions.every((s) => s.repo === w.repoA));
    assert.equal(r.recent({ global: true }).sessions.length, 4);
    assert.equal(r.recent({ repo: join(w.dir, "nowhere") }).status, "no_match");
  });
});
