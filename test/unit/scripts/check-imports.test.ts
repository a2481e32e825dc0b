// scripts/check-imports.mjs (the layer check in the lint stage) against small fixture trees.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import test from "node:test";
import { repoRoot } from "../../fixtures/agent-env/index";

const CHECK = join(repoRoot(), "scripts/check-imports.mjs");

interface Checked {
  code: number | null;
  problems: string[];
  out: string;
}

/** Writes `files` (path → source) under `root`. */
function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** Runs the checker on the tree under `root`, with `args` after `--root`. */
function checkRoot(root: string, ...args: string[]): Checked {
  const r = spawnSync(process.execPath, [CHECK, "--root", root, ...args], { encoding: "utf8" });
  return { code: r.status, problems: r.stderr.split("\n").filter(Boolean), out: r.stdout };
}

/** Writes `files` (path → source) under a fresh root and runs the checker on it. */
function check(files: Record<string, string>): Checked {
  const root = mkdtempSync(join(tmpdir(), "acp-imports-"));
  try {
    writeTree(root, files);
    return checkRoot(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The engine boundary's ratchet (scripts/engine-boundary.json): {front end: {internal module: [files]}}. */
const boundary = (listed: Record<string, Record<string, string[]>>): string => JSON.stringify(listed);

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
  // both front ends still import an engine internal (core/session.ts): the ratchet lists it for each file
  "scripts/engine-boundary.json": boundary({
    "src/vscode": { "src/core/session.ts": ["src/vscode/ext.ts"] },
    "src/cli": { "src/core/session.ts": ["src/cli/main.ts"] },
  }),
};

test("a tree that follows the layers passes", () => {
  const r = check(GOOD);
  assert.equal(r.code, 0, r.problems.join("\n"));
  assert.match(r.out, /check-imports: 11 files, \d+ imports, 0 problem/);
  // each front end reaches one core module (core/session.ts): the figure #35 item 7 shrinks
  assert.match(r.out, /core modules imported: src\/vscode 1, src\/cli 1$/m);
  assert.match(r.out, /engine boundary: src\/vscode 1 internals \+ 0 API \+ 0 pure helpers, src\/cli 1 internals/);
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

test("a front end importing an engine internal the ratchet does not list for that file fails, naming the command", () => {
  const r = check({
    ...GOOD,
    // core/session.ts is listed for src/cli/main.ts, not for a new file: the list is per importing file
    "src/cli/other.ts": `import { go } from "../core/session";\nexport const x = go;\n`,
    "src/vscode/more.ts": `import { save } from "../core/store/store";\nexport const x = save;\n`,
  });
  assert.equal(r.code, 1);
  assert.equal(r.problems.length, 2, r.problems.join("\n"));
  assert.match(r.problems[0]!, /^src\/cli\/other\.ts:1: imports the engine internal 'src\/core\/session\.ts'/);
  assert.match(r.problems[1]!, /^src\/vscode\/more\.ts:1: imports the engine internal 'src\/core\/store\/store\.ts'/);
  for (const p of r.problems) assert.match(p, /--update-boundary --add/);
});

test("the engine API and the pure helpers need no entry in the ratchet", () => {
  const r = check({
    ...GOOD,
    "src/core/model/more.ts": `export type More = { n: number };\n`,
    "src/core/host/protocol.ts": `export type Req = { id: number };\n`,
    "src/core/text/pure.ts": `export const upper = (s: string) => s.toUpperCase();\n`,
    "src/cli/uses.ts": [
      `import type { More } from "../core/model/more";`,
      `import type { Req } from "../core/host/protocol";`,
      `import { upper } from "../core/text/pure";`,
      `export const x = (m: More, q: Req) => upper(String(m.n + q.id));`,
    ].join("\n"),
  });
  assert.equal(r.code, 0, r.problems.join("\n"));
  assert.match(r.out, /src\/cli 1 internals \+ 2 API \+ 1 pure helpers/);
});

test("a listed import that is gone fails until --update-boundary drops it; a new one is added only with --add", () => {
  const root = mkdtempSync(join(tmpdir(), "acp-imports-"));
  try {
    writeTree(root, {
      ...GOOD,
      "src/cli/main.ts": `export const nothing = 1;\n`, // no longer imports core/session.ts
      "src/vscode/more.ts": `import { save } from "../core/store/store";\nexport const x = save;\n`,
    });
    const r = checkRoot(root);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.problems.map((p) => p.replace(/: .*/, "")),
      [
        "scripts/engine-boundary.json lists src/cli/main.ts → src/core/session.ts, which src/cli/main.ts no longer imports as an engine internal",
        "src/vscode/more.ts:1",
      ],
    );
    assert.match(
      r.problems[0]!,
      /run node scripts\/check-imports\.mjs --update-boundary to drop it \(the list only shrinks\)/,
    );

    // without --add the update only drops: the new import still fails
    const dropped = checkRoot(root, "--update-boundary");
    assert.equal(dropped.code, 1);
    assert.match(dropped.out, /^engine boundary: dropped src\/cli\/main\.ts → src\/core\/session\.ts$/m);
    assert.doesNotMatch(dropped.out, /added/);
    assert.equal(dropped.problems.length, 1, dropped.problems.join("\n"));
    assert.match(dropped.problems[0]!, /^src\/vscode\/more\.ts:1: imports the engine internal/);

    const added = checkRoot(root, "--update-boundary", "--add");
    assert.equal(added.code, 0, added.problems.join("\n"));
    assert.match(added.out, /^engine boundary: added src\/vscode\/more\.ts → src\/core\/store\/store\.ts$/m);
    const listed = JSON.parse(readFileSync(join(root, "scripts/engine-boundary.json"), "utf8"));
    assert.deepEqual(listed["src/vscode"], {
      "src/core/session.ts": ["src/vscode/ext.ts"],
      "src/core/store/store.ts": ["src/vscode/more.ts"],
    });
    assert.deepEqual(listed["src/cli"], {});
    assert.equal(checkRoot(root).code, 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a listed pure helper that does I/O, reads process or the clock, or keeps module state fails", () => {
  const r = check({
    ...GOOD,
    "src/core/text/io.ts": `import { readFileSync } from "node:fs";\nexport const read = (p: string) => readFileSync(p, "utf8");\n`,
    "src/core/text/env.ts": `export const home = () => process.env.HOME;\n`,
    "src/core/text/clock.ts": `export const stamp = () => new Date().toISOString() + Date.now();\n`,
    "src/core/text/state.ts": `let n = 0;\nconst seen = new Set<string>();\nexport const count = (s: string) => (seen.add(s), ++n);\n`,
    "src/core/text/timer.ts": `export const later = (f: () => void) => setTimeout(f, 10);\n`,
    // a listed helper in a stage (usage) may import upstream stages by the layers, but not values of internals
    "src/core/usage/format.ts": `import { save } from "../store/store";\nexport const x = save;\n`,
  });
  assert.equal(r.code, 1);
  const expected: Array<[string, RegExp]> = [
    ["src/core/text/io.ts:1:", /a pure helper .* imports 'node:fs'/],
    ["src/core/text/env.ts:1:", /a pure helper .* reads `process`/],
    ["src/core/text/clock.ts:1:", /reads the clock/],
    ["src/core/text/state.ts:1:", /keeps module state \(`let` \/ `var`\)/],
    ["src/core/text/state.ts:3:", /keeps module state \(the module-level Set it changes\)/],
    ["src/core/text/timer.ts:1:", /starts a timer/],
    ["src/core/usage/format.ts:1:", /imports the engine internal 'src\/core\/store\/store\.ts'/],
  ];
  for (const [prefix, re] of expected) {
    const line = r.problems.find((p) => p.startsWith(prefix) && re.test(p));
    assert.ok(line, `expected a problem ${prefix} ${re}; got:\n${r.problems.join("\n")}`);
  }
  // clock.ts:1 reads the clock twice (new Date() and Date.now()), the rest once each
  assert.equal(r.problems.length, expected.length + 1, r.problems.join("\n"));
});

test("a pure helper may take the time as a parameter's default, keep constant tables and do path math", () => {
  const r = check({
    ...GOOD,
    "src/core/usage/format.ts": [
      `import { join } from "node:path";`,
      `import type { save } from "../store/store";`,
      `const KINDS = new Set(["a", "b"]);`,
      `export const at = (now: number = Date.now(), when: Date = new Date()) => now + when.getTime();`,
      `export const known = (k: string, s?: typeof save) => KINDS.has(k) && !!s;`,
      `export const under = (a: string) => join(a, "x");`,
      `export const since = (t: string) => new Date(t);`,
    ].join("\n"),
  });
  assert.equal(r.code, 0, r.problems.join("\n"));
});

test("the repository itself passes", () => {
  const r = spawnSync(process.execPath, [CHECK], { encoding: "utf8", cwd: repoRoot() });
  assert.equal(r.status, 0, r.stderr);
});
