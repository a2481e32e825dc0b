#!/usr/bin/env node
// Runs the extension's mocha suite INSIDE code-server's real extension host (the `host` stage of npm test).
//
//   node test/host/run.mjs                       three passes: trusted workspace, Workspace Trust on, multi-root
//   node test/host/run.mjs --pass main|untrusted|multiroot   one pass
//   options: --ext DIR --tests FILE --folder DIR --grep RE --timeout SECONDS --slowest N --verbose
//   (--slowest: how many of the slowest tests and top-level suites are told at the end, default 20, 0 for none)
//   (--folder: the one folder of the main and untrusted passes; the multiroot pass always makes its two)
//
// How: code-server's web client reads a `payload` query parameter carrying extensionDevelopmentPath and
// extensionTestsPath as vscode-remote:// URIs, but only with `--vscode-option enable-smoke-test-driver`.
// The extension host calls the test module's run(); when it settles the workbench calls
// window.codeAutomationExit(code), which we expose from Playwright. Closing line: "N passed, N failed".
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { format, parseArgs } from "node:util";
import { LOG_NOISE, ROOT, launchChromium, remoteUri, startCodeServer, stopwatch } from "./host.mjs";

const { values: opt } = parseArgs({
  options: {
    ext: { type: "string", default: ROOT },
    tests: { type: "string", default: path.join(ROOT, "dist-test/host/suite/index.main.js") },
    folder: { type: "string" },
    grep: { type: "string" },
    pass: { type: "string" },
    // a pass's hang guard, not a timed assertion (mocha's own per-test timeouts fail a slow test): the main pass
    // ran 589 s quiet in stop 39's last rehearsal, and 154 of its tests took 14 min alone on this 2-core machine in
    // stop 40 (the suite grew; the 1,200 s bound was hit at 170 tests in a loaded rehearsal)
    timeout: { type: "string", default: "1800" },
    slowest: { type: "string", default: "20" },
    verbose: { type: "boolean", default: !!process.env.ACP_HOST_VERBOSE },
  },
});
const elapsed = stopwatch();
const log = (s) => console.log(`[host ${elapsed()}] ${s}`);

/** A small workspace the suite edits: a couple of files and a git-less project layout. */
function makeWorkspace() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "acp-host-ws-"));
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "README.md"), "# Sample workspace\n\nUsed by the ACP Threads host tests.\n");
  writeFileSync(
    path.join(dir, "src", "greet.js"),
    'function greet(name) {\n  return "hello " + name;\n}\nmodule.exports = { greet };\n',
  );
  return dir;
}

/**
 * A multi-root window (#35): two folders as makeWorkspace makes them, named by a `.code-workspace` file in a folder of
 * its own (not inside either, so neither folder holds a file the other names).
 */
function makeMultiRoot() {
  const folders = [makeWorkspace(), makeWorkspace()];
  const dir = mkdtempSync(path.join(os.tmpdir(), "acp-host-multiroot-"));
  const file = path.join(dir, "two-folders.code-workspace");
  writeFileSync(file, JSON.stringify({ folders: folders.map((p) => ({ path: p })), settings: {} }, null, 1));
  return { file, made: [...folders, dir] };
}

/** What a pass opens: `?folder=` of one folder, or (`roots: 2`) `?workspace=` of a two-folder workspace file. */
function openWorkspace(roots) {
  if (roots === 2) {
    const { file, made } = makeMultiRoot();
    return { query: `workspace=${encodeURIComponent(file)}`, label: `multi-root workspace ${file}`, made };
  }
  const folder = opt.folder ? path.resolve(opt.folder) : makeWorkspace();
  return {
    query: `folder=${encodeURIComponent(folder)}`,
    label: `workspace ${folder}`,
    made: opt.folder ? [] : [folder],
  };
}

/** The passes, in the order a plain run runs them: each one code-server start (~10–20 s) and its suite files. */
const PASSES = { main: { trust: false }, untrusted: { trust: true }, multiroot: { trust: false, roots: 2 } };

async function runPass(name, { trust, roots = 1 }) {
  const ws = openWorkspace(roots);
  const home = mkdtempSync(path.join(os.tmpdir(), "acp-host-home-"));
  const resultsFile = path.join(os.tmpdir(), `acp-host-results-${process.pid}-${name}.log`);
  rmSync(resultsFile, { force: true });
  const env = {
    ACP_HOST_RESULTS: resultsFile,
    ACP_HOST_PASS: name,
    ACP_REPO_ROOT: ROOT,
    ACP_THREADS_HOME: home,
    ...(opt.grep ? { ACP_HOST_GREP: opt.grep } : {}),
  };
  // VS Code's own git extension runs in the extension host with the tests: the worktree suites create and delete
  // repositories under it, and its background `git check-ignore` on a deleted one threw an uncaught EPIPE that
  // mocha charged to whichever test ran then. No test uses that extension.
  // Auto-save off, VS Code's own default (code-server's is after a delay): an unsaved edit a test makes stays
  // unsaved. With it on, the unsaved-buffer test's marker was saved into README.md for every later test, and a file
  // saved during some session's turn is that turn's change (the review-comments and host-serve tests met both).
  const settings = { "git.enabled": false, "files.autoSave": "off" };
  const server = await startCodeServer({
    trust,
    env,
    settings,
    extraArgs: ["--vscode-option", "enable-smoke-test-driver"],
  });
  log(`[${name}] code-server ${server.url}, ${ws.label}, trust ${trust ? "on" : "off"}`);
  const context = await launchChromium();
  let code;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    let finish;
    const done = new Promise((r) => (finish = r));
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      if (opt.verbose || !LOG_NOISE.test(line)) console.log(opt.verbose ? `[${type}] ${line}` : line);
    });
    await page.exposeFunction("codeAutomationExit", (c) => finish(c));
    const payload = [
      ["extensionDevelopmentPath", remoteUri(server.authority, path.resolve(opt.ext))],
      ["extensionTestsPath", remoteUri(server.authority, path.resolve(opt.tests))],
      ["skipWelcome", "true"],
      ["skipReleaseNotes", "true"],
    ];
    const guard = Number(opt.timeout) * 1000;
    // the page counts as opened once its response comes (`commit`): waiting for its `load` under Playwright's 30 s
    // default failed a whole pass on a loaded 2-core machine (stop 54, load average 23) while the workbench loaded;
    // the pass's guard below bounds the rest
    await page.goto(`${server.url}/?${ws.query}&payload=${encodeURIComponent(JSON.stringify(payload))}`, {
      waitUntil: "commit",
      timeout: guard,
    });
    code = await Promise.race([done, new Promise((r) => setTimeout(() => r("timeout"), guard))]);
    if (code !== 0) {
      const shot = path.join(ROOT, "test-results", `host-${name}-failure.png`);
      mkdirSync(path.dirname(shot), { recursive: true });
      await page.screenshot({ path: shot }).catch(() => {});
      log(`screenshot ${shot}`);
    }
  } finally {
    await context.close().catch(() => {});
    await server.stop({ keep: code !== 0 });
    if (code !== 0) log(`kept ${server.workDir} (code-server.log, user-data/logs/*/exthost1/remoteexthost.log)`);
    for (const d of ws.made) rmSync(d, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : "";
  rmSync(resultsFile, { force: true });
  const m = [...text.matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
  const counts = m ? { passed: +m[1], failed: +m[2] } : { passed: 0, failed: 1 };
  if (code === "timeout") log(`[${name}] TIMEOUT after ${opt.timeout}s`);
  else log(`[${name}] extension host exited with ${code}`);
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(`--- ${name} results ---\n${text.trim() || "(no results written)"}`);
  return { ...counts, text };
}

/**
 * Where the passes' time went: the slowest tests (mocha's duration, hooks not included) and the slowest top-level
 * suites (hooks included), from the lines index.main.ts records: "ok   - TITLE (N ms)", "suite - TITLE (N ms)".
 */
function tellSlowest(texts, rows) {
  if (!(rows > 0)) return;
  const pick = (re) =>
    texts
      .flatMap(([pass, text]) => [...text.matchAll(re)].map((m) => ({ pass, title: m[1], ms: +m[2] })))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, rows);
  const row = (r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  [${r.pass}] ${r.title}`;
  console.log(
    `slowest suites (hooks included)\n${pick(/^suite - (.*) \((\d+) ms\)$/gm)
      .map(row)
      .join("\n")}`,
  );
  console.log(
    `slowest tests\n${pick(/^ok {3}- (.*) \((\d+) ms\)$/gm)
      .map(row)
      .join("\n")}`,
  );
}

// The real agents (codex-acp for the demo profile) live in test/agents; install them when missing.
if (!existsSync(path.join(ROOT, "test/agents/node_modules/.bin/codex-acp"))) {
  const { spawnSync: sync } = await import("node:child_process");
  if (sync("bash", [path.join(ROOT, "test/agents/install.sh")], { stdio: "inherit" }).status !== 0)
    throw new Error("bash test/agents/install.sh failed");
}
if (opt.pass && !PASSES[opt.pass]) throw new Error(`--pass ${opt.pass}: one of ${Object.keys(PASSES).join(", ")}`);
const passes = opt.pass ? [opt.pass] : Object.keys(PASSES);
let passed = 0;
let failed = 0;
const texts = [];
for (const p of passes) {
  const r = await runPass(p, PASSES[p]);
  passed += r.passed;
  failed += r.failed;
  texts.push([p, r.text]);
}
tellSlowest(texts, Number(opt.slowest));
log(`done in ${elapsed()}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
