// The gitignore matcher against `git check-ignore` itself on the same tree (differential), plus the cases
// gitignore(5) spells out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { IgnoreMatcher, parseRule } from "../../../../src/core/ledger/gitignore";
import { withTmp } from "../store/helpers";

const ROOT_RULES = [
  "# comment",
  "*.log",
  "!keep.log",
  "/build/",
  "dist",
  "doc/**/*.pdf",
  "**/cache/",
  "tmp/**",
  "a?c.txt",
  "[Tt]emp*.md",
  "[!x]y.bin",
  "name\\ with\\ space ",
  "trailing   ",
  "\\#hash",
  "\\!bang",
  "logs/",
  "!logs/important/",
  "deep/**/z",
  "*.[oa]",
  "[[:digit:]]*.num",
  "sub/anchored.txt",
].join("\n");

const NESTED_RULES = ["!*.log", "local-only", "/rooted", "inner/"].join("\n");

const PATHS = [
  "a.log",
  "src/b.log",
  "keep.log",
  "src/keep.log",
  "build/x.js",
  "src/build/x.js",
  "dist",
  "src/dist/y.js",
  "doc/a.pdf",
  "doc/x/y/a.pdf",
  "doc/a.txt",
  "src/cache/c.txt",
  "cache/c.txt",
  "cache",
  "tmp/a",
  "tmp/b/c",
  "abc.txt",
  "abbc.txt",
  "src/axc.txt",
  "Temp1.md",
  "temp.md",
  "xemp.md",
  "ay.bin",
  "xy.bin",
  "name with space",
  "trailing",
  "#hash",
  "!bang",
  "logs/a.txt",
  "logs/important/b.txt",
  "deep/z",
  "deep/a/b/z",
  "m.o",
  "m.a",
  "m.c",
  "7x.num",
  "x7.num",
  "sub/anchored.txt",
  "other/sub/anchored.txt",
  "nested/a.log",
  "nested/local-only",
  "nested/x/local-only",
  "nested/rooted",
  "nested/x/rooted",
  "nested/inner/f.txt",
  "plain.txt",
  "src/index.ts",
];

test("the matcher agrees with git check-ignore on every path", async () => {
  await withTmp(async (dir) => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    writeFileSync(join(dir, ".gitignore"), ROOT_RULES);
    mkdirSync(join(dir, "nested"));
    writeFileSync(join(dir, "nested/.gitignore"), NESTED_RULES);
    writeFileSync(join(dir, ".git/info/exclude"), "excluded-by-info\n");
    const paths = [...PATHS, "excluded-by-info", "x/excluded-by-info"];
    for (const p of paths) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      if (p !== "cache") writeFileSync(join(dir, p), "x");
      else mkdirSync(join(dir, p), { recursive: true });
    }
    let gitSays: Set<string>;
    try {
      const out = execFileSync("git", ["check-ignore", "--no-index", "-z", "--stdin"], {
        cwd: dir,
        input: paths.join("\0"),
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: dir, XDG_CONFIG_HOME: join(dir, ".xdg") },
      });
      gitSays = new Set(out.toString().split("\0").filter(Boolean));
    } catch (err) {
      gitSays = new Set(); // exit 1: nothing ignored
      if ((err as { status?: number }).status !== 1) throw err;
    }
    const m = new IgnoreMatcher(dir, { extra: ["", "excluded-by-info\n"] });
    const mismatches = paths.filter((p) => m.ignores(p, p === "cache") !== gitSays.has(p));
    assert.deepEqual(
      mismatches.map((p) => `${p}: git ${gitSays.has(p) ? "ignores" : "keeps"}`),
      [],
    );
    assert.ok(gitSays.size > 20, `git ignored only ${gitSays.size} paths; the fixture is not exercising much`);
  });
});

test("blank lines, comments and lone slashes are not rules; .git is always ignored", () => {
  assert.equal(parseRule(""), undefined);
  assert.equal(parseRule("   "), undefined);
  assert.equal(parseRule("# x"), undefined);
  assert.equal(parseRule("/"), undefined);
  const m = new IgnoreMatcher("/nowhere", { readFile: () => undefined });
  assert.equal(m.ignores(".git/config", false), true);
  assert.equal(m.ignores("a/.git", true), true);
  assert.equal(m.ignores("src/a.ts", false), false);
});

test("a file below an ignored directory cannot be re-included", () => {
  const m = new IgnoreMatcher("/r", {
    readFile: (rel) => (rel === ".gitignore" ? "out/\n!out/keep.txt\n" : undefined),
  });
  assert.equal(m.ignores("out/keep.txt", false), true);
  assert.equal(m.ignores("out", true), true);
  assert.equal(m.ignores("out", false), false); // "out/" matches directories only
});
