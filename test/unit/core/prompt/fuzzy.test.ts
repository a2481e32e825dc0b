import assert from "node:assert/strict";
import { test } from "node:test";
import { matchPath, PathIndex } from "../../../../src/core/prompt/fuzzy";

const paths = [
  "src/greet.js",
  "src/vscode/thread-panels.ts",
  "src/webview/thread/main.ts",
  "test/unit/greeting.test.ts",
  "README.md",
  "src/",
  "src/vscode/",
  "docs/great-expectations.md",
];

test("file-name matches rank above path matches; prefixes and word starts above scattered letters", () => {
  const idx = new PathIndex(paths);
  assert.equal(idx.search("greet")[0].path, "src/greet.js");
  assert.equal(idx.search("tp")[0].path, "src/vscode/thread-panels.ts");
  assert.equal(idx.search("readme")[0].path, "README.md");
  assert.deepEqual(
    idx.search("wvmain").map((m) => m.path),
    ["src/webview/thread/main.ts"],
  );
  assert.equal(idx.search("zzz").length, 0);
});

test("folders match by name and a query with a slash matches the whole path", () => {
  const idx = new PathIndex(paths);
  assert.equal(idx.search("vscode")[0].path, "src/vscode/");
  assert.ok(idx.search("src/gr").some((m) => m.path === "src/greet.js"));
});

test("positions point at the matched characters", () => {
  const m = matchPath("gjs", "src/greet.js")!;
  assert.deepEqual(
    m.positions.map((i) => "src/greet.js"[i]),
    ["g", "j", "s"],
  );
});

test("add, delete and deleteUnder keep the index consistent", () => {
  const idx = new PathIndex(paths);
  idx.delete("src/greet.js");
  assert.ok(!idx.has("src/greet.js"));
  assert.equal(idx.search("greet.js").length, 0);
  idx.deleteUnder("src/vscode");
  assert.ok(!idx.has("src/vscode/thread-panels.ts") && !idx.has("src/vscode/"));
  assert.ok(idx.has("src/webview/thread/main.ts"));
  idx.add("src/new.ts");
  assert.equal(idx.search("new")[0].path, "src/new.ts");
  assert.equal(idx.size, 6);
});

test("the limit keeps the best matches in order", () => {
  const idx = new PathIndex(Array.from({ length: 500 }, (_, i) => `pkg${i}/file${i}.ts`));
  const top = idx.search("file1", 5);
  assert.equal(top.length, 5);
  assert.equal(top[0].path, "pkg1/file1.ts");
  for (let i = 1; i < top.length; i++) assert.ok(top[i - 1].score >= top[i].score);
});
