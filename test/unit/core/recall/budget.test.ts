import { test } from "node:test";
import assert from "node:assert/strict";
import { renderSearchMarkdown } from "../../../../src/core/recall/render";
import type { SearchResult } from "../../../../src/core/recall/search";
import { cli, makeWorld, withIndex, writeRollout, type World } from "./helpers";

/** Five sessions in one repo, each with long messages around several "pangolin" hits. */
function longSessions(w: World): void {
  for (let s = 0; s < 5; s++) {
    const msgs = Array.from({ length: 24 }, (_, i) => ({
      role: (i % 2 ? "assistant" : "user") as "user" | "assistant",
      text: `${"context words about the migration runner ".repeat(30)}${i % 6 === 0 ? ` the pangolin clue ${s}/${i} ` : ""}${"and more filler after it ".repeat(20)}`,
    }));
    writeRollout(w, `bud${s}`, w.repoB, msgs);
  }
}

const evidence = (r: SearchResult) =>
  r.sessions.map((s) => s.windows.map((x) => x.messages.map((m) => [m.seq, m.text])));

test("--budget-chars is the total size of the markdown answer, headers and paths included", () => {
  withIndex((w, r) => {
    longSessions(w);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    for (const budget of [300, 600, 1000, 2000, 4500, 12_000]) {
      const res = r.search("pangolin", { repo: w.repoB, limit: 5, budgetChars: budget });
      const md = renderSearchMarkdown(res);
      assert.ok(md.length <= budget, `budget ${budget}: printed ${md.length} characters`);
      assert.ok(
        res.sessions.every((s) => s.windows.some((x) => x.messages.some((m) => m.hit))),
        `budget ${budget}: every session shown carries a hit`,
      );
      if (budget >= 1000) assert.ok(res.sessions.length >= 1, `budget ${budget} shows a session`);
      if (budget >= 2000) assert.ok(md.length >= budget * 0.8, `budget ${budget} is used (${md.length})`);
    }
    const small = r.search("pangolin", { repo: w.repoB, limit: 5, budgetChars: 2000 });
    assert.ok(small.sessions.length < 5 && small.truncated, "sessions that no longer fit are left out, and it says so");
    assert.equal(small.matched_sessions, 5);
  });
});

test("the JSON answer carries exactly the evidence of the markdown one, both within the budget", async () => {
  const w = makeWorld();
  try {
    const opts = { home: w.home, cwd: w.repoB };
    longSessions(w);
    assert.equal((await cli(["recall", "bootstrap", "--root", w.codexRoot, "--all-history"], opts)).code, 0);
    const md = await cli(["recall", "--budget-chars", "2000", "--limit", "5", "pangolin"], opts);
    assert.equal(md.code, 0, md.err);
    assert.ok(md.out.length <= 2000, `markdown printed ${md.out.length} characters for --budget-chars 2000`);
    const json = await cli(["recall", "--format", "json", "--budget-chars", "2000", "--limit", "5", "pangolin"], opts);
    const res = JSON.parse(json.out) as SearchResult;
    const text = res.sessions.flatMap((s) => s.windows.flatMap((x) => x.messages.map((m) => m.text))).join("");
    assert.ok(text.length > 0 && text.length <= 2000);
    for (const s of res.sessions) assert.ok(md.out.includes(s.path), "the same sessions");
    for (const t of res.sessions.flatMap((s) => s.windows.flatMap((x) => x.messages.map((m) => m.text))))
      for (const line of t.split("\n").filter((l) => l.trim())) assert.ok(md.out.includes(line.trim()), line);
    const again = JSON.parse(
      (await cli(["recall", "--format", "json", "--budget-chars", "2000", "--limit", "5", "pangolin"], opts)).out,
    ) as SearchResult;
    assert.deepEqual(evidence(again), evidence(res), "the same evidence on every run");
  } finally {
    w.cleanup();
  }
});
