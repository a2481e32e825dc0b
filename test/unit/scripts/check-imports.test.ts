// scripts/check-imports.mjs (the layer check in the lint stage) against small fixture trees.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import test from "node:test";
import { repoRoot } from "../../fixtures/agent-env/index";

const CHECK = join(repoRoot(), "scripts/check-imports.mjs");

/** Writes `files` (path → source) under a fresh root and runs the checker on it. */
function check(files: Record<string, string>): { code: number | null; problems: string[]; out: string } {
  const root = mkdtempSync(join(tmpdir(), "acp-imports-"));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    const r = spawnSync(process.execPath, [CHECK, "--root", root], { encoding: "utf8" });
    return { code: r.status, problems: r.stderr.split("\n").filter(Boolean), out: r.stdout };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A tree that follows every rule; each test adds one mistake to it. */
const GOOD: Record<string, string> = {
  "src/core/model/thing.ts": `export interface Thing { id: string }\n`,
  "src/core/log.ts": `import type { Thing } from "./model/thing";\nexport const log = (t: Thing) => t.id;\n`,
  "src/core/acp/agent.ts": `import { log } from "../log";\nexport const run = () => log({ id: "a" });\n`,
  "src/core/store/store.ts": `import { run } from "../acp/agent";\nexport const save = () => run();\n`,
  "src/core/session/part.ts": `import { save } from "../store/store";\nexport const part = () => save();\n`,
  "src/core/session.ts": `import { part } from "./session/part";\nexport const go = () => part();\n`,
  "src/cli/main.ts": `import { go } from "../core/session";\ngo();\n`,
  "src/vscode/ext.ts": `import * as vscode from "vscode";\nimport type { Msg } from "../webview/panel/protocol";\nimport { go } from "../core/session";\nexport const m = (x: Msg) => vscode.window.showInformationMessage(x + go());\n`,
  "src/webview/panel/protocol.ts": `export type Msg = string;\n`,
  "src/webview/panel/main.ts": `import type { Msg } from "./protocol";\nimport type { Thing } from "../../core/model/thing";\nimport type { save } from "../../core/store/store";\nimport { esc } from "../shared/esc";\nexport const show = (m: Msg, t: Thing, s: typeof save) => esc(m + t.id + s);\n`,
  "src/webview/shared/esc.ts": `export const esc = (s: string) => s.replace(/</g, "&lt;");\n`,
};

test("a tree that follows the layers passes", () => {
  const r = check(GOOD);
  assert.equal(r.code, 0, r.problems.join("\n"));
  assert.match(r.out, /check-imports: 11 files, \d+ imports, 0 problem/);
  // each front end reaches one core module (core/session.ts): the figure #35 item 7 shrinks
  assert.match(r.out, /core modules imported: src\/vscode 1, src\/cli 1$/m);
});

test("an import cycle is reported with the files on it, in order", () => {
  const r = check({
    ...GOOD,
    "src/core/acp/a.ts": `import { b } from "./b";\nexport const a = () => b();\n`,
    "src/core/acp/b.ts": `import type { a } from "./a";\nexport const b = (): ReturnType<typeof a> | void => undefined;\n`,
  });
  assert.equal(r.code, 1);
  assert.deepEqual(r.problems, ["import cycle: src/core/acp/a.ts → src/core/acp/b.ts → src/core/acp/a.ts"]);
});

test("a longer cycle through a re-export is found too", () => {
  const r = check({
    ...GOOD,
    "src/core/store/x.ts": `export { y } from "./y";\n`,
    "src/core/store/y.ts": `import { z } from "./z";\nexport const y = z;\n`,
    "src/core/store/z.ts": `export const z = () => import("./x");\n`,
  });
  assert.deepEqual(r.problems, [
    "import cycle: src/core/store/x.ts → src/core/store/y.ts → src/core/store/z.ts → src/core/store/x.ts",
  ]);
});

test("every file of a tangle is named, not only the first loop through it", () => {
  const r = check({
    ...GOOD,
    "src/core/acp/a.ts": `import { b } from "./b";\nexport const a = () => b;\n`,
    "src/core/acp/b.ts": `import { a } from "./a";\nimport { c } from "./c";\nexport const b = () => [a, c];\n`,
    "src/core/acp/c.ts": `import type { b } from "./b";\nexport const c = (x?: typeof b) => x;\n`,
  });
  assert.deepEqual(r.problems, [
    "import cycle: src/core/acp/a.ts → src/core/acp/b.ts → src/core/acp/a.ts (also tangled in it: src/core/acp/c.ts)",
  ]);
});

test("wrong-way imports are reported with the file, the line and the rule", () => {
  const r = check({
    ...GOOD,
    // core → vscode (the module and the folder), a stage importing a downstream stage, core importing session.ts
    "src/core/acp/bad.ts": [
      `import * as vscode from "vscode";`,
      `import { save } from "../store/store";`,
      `import { m } from "../../vscode/ext";`,
      `import { go } from "../session";`,
      `import { part } from "../session/part";`,
      `export const bad = [vscode, save, m, go, part];`,
    ].join("\n"),
    // cli → webview; vscode → webview beyond the protocol files; webview → node and core values
    "src/cli/bad.ts": `import { show } from "../webview/panel/main";\nexport const x = show;\n`,
    "src/vscode/bad.ts": `import { esc } from "../webview/shared/esc";\nexport const x = esc;\n`,
    "src/webview/panel/bad.ts": `import { readFileSync } from "node:fs";\nimport { save } from "../../core/store/store";\nexport const x = [readFileSync, save];\n`,
    "src/webview/other/main.ts": `import { show } from "../panel/main";\nexport const x = show;\n`,
  });
  assert.equal(r.code, 1);
  const expected: Array<[string, RegExp]> = [
    ["src/cli/bad.ts:1:", /src\/cli never imports src\/webview/],
    ["src/core/acp/bad.ts:1:", /'vscode'.*only src\/vscode imports 'vscode'/],
    [
      "src/core/acp/bad.ts:2:",
      /'src\/core\/store\/store.ts'.*core\/acp may import only upstream stages, not core\/store/,
    ],
    ["src/core/acp/bad.ts:3:", /nothing outside src\/vscode imports src\/vscode/],
    ["src/core/acp/bad.ts:4:", /only core\/session.ts joins the stages/],
    ["src/core/acp/bad.ts:5:", /only core\/session.ts joins the stages/],
    ["src/vscode/bad.ts:1:", /src\/vscode imports of src\/webview only its typed protocol files/],
    ["src/webview/other/main.ts:1:", /src\/webview\/other imports only its own files and src\/webview\/shared/],
    ["src/webview/panel/bad.ts:1:", /browser code never imports node built-ins/],
    ["src/webview/panel/bad.ts:2:", /browser-safe modules/],
  ];
  assert.equal(r.problems.length, expected.length, r.problems.join("\n"));
  for (const [prefix, re] of expected) {
    const line = r.problems.find((p) => p.startsWith(prefix) && re.test(p));
    assert.ok(line, `expected a problem ${prefix} ${re}; got:\n${r.problems.join("\n")}`);
  }
});

test("an import of a file that does not exist is an error, not a silent pass", () => {
  const r = check({ ...GOOD, "src/core/acp/typo.ts": `import { x } from "./nope";\nexport const y = x;\n` });
  assert.deepEqual(r.problems, ["src/core/acp/typo.ts:1: imports './nope', which does not exist"]);
});

test("the repository itself passes", () => {
  const r = spawnSync(process.execPath, [CHECK], { encoding: "utf8", cwd: repoRoot() });
  assert.equal(r.status, 0, r.stderr);
});
