// Windows paths in the edit ledger through the platform seam (path.win32 on Linux): relative paths stay
// `/`-separated, git's `C:/x` and `c:\x` name the same folder, another drive or share is outside, directory
// watch reports and gitignore matching take `\` and ignore case there, while POSIX keeps `\` as a character.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IgnoreMatcher } from "../../../../src/core/ledger/gitignore";
import { childRel, relUnder, toSlashes } from "../../../../src/core/ledger/rel-path";
import { relPath } from "../../../../src/core/ledger/summary";
import { platformOf } from "../../../../src/core/platform/host";

const win = platformOf("win32");
const linux = platformOf("linux");

test("relative paths under a Windows root are /-separated; other drives and shares are outside", () => {
  assert.equal(relUnder("C:\\ws", "C:\\ws\\src\\a.ts", win), "src/a.ts");
  assert.equal(relUnder("C:/ws", "C:\\ws\\src\\a.ts", win), "src/a.ts"); // git's --show-toplevel form
  assert.equal(relUnder("c:\\WS", "C:\\ws\\sub", win), "sub"); // drive letter and name case
  assert.equal(relUnder("C:\\ws", "C:\\ws", win), "");
  assert.equal(relUnder("C:\\ws", "C:\\ws2\\a.ts", win), undefined);
  assert.equal(relUnder("C:\\ws", "D:\\ws\\a.ts", win), undefined);
  assert.equal(relUnder("\\\\srv\\share\\ws", "\\\\srv\\share\\ws\\a\\b.txt", win), "a/b.txt");
  assert.equal(relUnder("\\\\srv\\share\\ws", "\\\\srv\\other\\ws\\b.txt", win), undefined);
});

test("POSIX keeps a backslash as part of a file name", () => {
  assert.equal(relUnder("/ws", "/ws/src/a\\b.ts", linux), "src/a\\b.ts");
  assert.equal(relUnder("/ws", "/ws-2/a", linux), undefined);
  assert.equal(toSlashes("a\\b", linux), "a\\b");
  assert.equal(toSlashes("a\\b\\c", win), "a/b/c");
});

test("a directory watch's child name becomes a /-separated relative path", () => {
  assert.equal(childRel("", "a.ts", win), "a.ts");
  assert.equal(childRel("src/m1", "a.ts", win), "src/m1/a.ts");
  assert.equal(childRel("src", "deep\\a.ts", win), "src/deep/a.ts");
  assert.equal(childRel("src", "odd\\name", linux), "src/odd\\name");
});

test("the ledger's summaries name files relative to the thread's folder on this machine", () => {
  assert.equal(relPath("/ws", "/ws/src/a.ts"), "src/a.ts");
  assert.equal(relPath("/ws", "/elsewhere/a.ts"), "/elsewhere/a.ts");
  assert.equal(relPath("/ws", "/ws"), "/ws");
});

test("gitignore on Windows: backslash paths, case ignored as git's core.ignorecase does; POSIX stays exact", () => {
  const rules: Record<string, string> = { ".gitignore": "build/\n*.log\n/Docs/out\n", "src/.gitignore": "gen/\n" };
  const matcher = (platform = win) =>
    new IgnoreMatcher("C:\\ws", { platform, readFile: (rel) => rules[rel], extra: ["Secret.txt\n"] });
  const w = matcher();
  assert.equal(w.ignores("build\\out.js", false), true);
  assert.equal(w.ignores("Build\\out.js", false), true);
  assert.equal(w.ignores("src\\app.LOG", false), true);
  assert.equal(w.ignores("docs\\OUT", false), true);
  assert.equal(w.ignores("src\\gen\\x.ts", false), true); // a nested .gitignore, read by its /-separated path
  assert.equal(w.ignores("secret.txt", false), true);
  assert.equal(w.ignores(".GIT\\config", false), true);
  assert.equal(w.ignores("src\\main.ts", false), false);
  const l = matcher(linux);
  assert.equal(l.ignores("build/out.js", false), true);
  assert.equal(l.ignores("Build/out.js", false), false);
  assert.equal(l.ignores("src/app.LOG", false), false);
  assert.equal(l.ignores("src/gen/x.ts", false), true);
  assert.equal(l.ignores("build\\out.js", false), false); // one file named "build\out.js" at the root
});
