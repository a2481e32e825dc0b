import { test } from "node:test";
import assert from "node:assert/strict";
import { compileTerm, parseQuery } from "../../../../src/core/recall/query";
import { normalize, segment } from "../../../../src/core/recall/text";
import { importAll, makeWorld } from "./helpers";

test("normalisation folds case and width and turns CJK punctuation into spaces", () => {
  // NFKC maps the full-width comma to ","; the ideographic full stop has no ASCII twin and becomes a space
  assert.equal(normalize("ＡＢＣ，数据。Def「x」"), "abc,数据 def x ");
});

test("CJK runs become overlapping bigrams and a lone CJK char stays itself", () => {
  assert.equal(segment("修复数据库 ok 库").replace(/\s+/g, " ").trim(), "修复 复数 数据 据库 ok 库");
  assert.equal(segment("登录page").replace(/\s+/g, " ").trim(), "登录 page");
  assert.equal(
    segment(normalize("数据，据库")),
    "数据 , ǁ 据库",
    "a break token between runs only punctuation separates",
  );
});

test("terms compile to quoted FTS expressions and mark what needs confirming", () => {
  assert.deepEqual(compileTerm("Rollback"), { text: "Rollback", norm: "rollback", fts: '"rollback"*', confirm: false });
  assert.deepEqual(compileTerm("登录"), { text: "登录", norm: "登录", fts: '"登录"', confirm: false });
  assert.equal(compileTerm("数据库")?.fts, '"数据 据库"');
  assert.equal(compileTerm("数据库")?.confirm, false, "a bigram phrase is exact");
  assert.deepEqual(
    [compileTerm("用sqlite")?.fts, compileTerm("用sqlite")?.confirm],
    ['"sqlite"*', true],
    "a 1-char CJK edge is confirmed",
  );
  assert.equal(compileTerm("数据，据库")?.fts, '"数据 ǁ 据库"', "the needle keeps the run break it contains");
  assert.equal(compileTerm("migration-rollback")?.fts, '"migration rollback"*');
  assert.equal(compileTerm("库")?.fts, undefined);
  assert.equal(compileTerm("->")?.fts, undefined);
  assert.equal(compileTerm("   "), undefined);
});

test("the parser splits alternatives on | and keeps quoted phrases whole", () => {
  const q = parseQuery('foo "bar baz"|qux');
  assert.deepEqual(
    q.terms.map((t) => t.norm),
    ["foo", "bar baz", "qux"],
  );
  assert.deepEqual(q.groups, [[0, 1], [2]]);
  assert.equal(q.explicitOr, true);
  assert.deepEqual(
    parseQuery('"unterminated quote').terms.map((t) => t.norm),
    ["unterminated quote"],
  );
  assert.deepEqual(parseQuery("a a A").terms.length, 1);
});

test("fuzzed queries with FTS syntax, SQL and odd unicode never raise an error", () => {
  const w = makeWorld();
  const r = importAll(w);
  const pieces = [
    '"',
    "'",
    "*",
    "(",
    ")",
    "NEAR",
    "NEAR(a b, 2)",
    "AND",
    "OR",
    "NOT",
    "^",
    ":",
    "seg:",
    "-",
    "+",
    "{",
    "}",
    "'; DROP TABLE messages; --",
    "\\",
    "%",
    "_",
    "|",
    "||",
    "登录",
    "库",
    "数据库",
    "ｆｕｌｌ",
    "é",
    "e\u0301",
    "🙂",
    "\u0000",
    "\u200b",
    "rollback",
    "x".repeat(300),
    "\ud800",
    "NEAR/3",
    "col:term",
    "a*b",
    '""',
    "()",
  ];
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  try {
    for (let i = 0; i < 400; i++) {
      const n = 1 + Math.floor(rand() * 6);
      const q = Array.from({ length: n }, () => pieces[Math.floor(rand() * pieces.length)]).join(
        rand() < 0.5 ? " " : "",
      );
      const res = r.search(q, { global: rand() < 0.5, repo: w.repoA, allTerms: rand() < 0.3 });
      assert.ok(["ok", "no_match", "empty_query"].includes(res.status), `status for ${JSON.stringify(q)}`);
    }
    assert.equal(r.status().totals.messages > 0, true, "the index survived the SQL-looking input");
  } finally {
    r.close();
    w.cleanup();
  }
});
