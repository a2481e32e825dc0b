#!/usr/bin/env node
// Browser e2e runner: installs the packaged VSIX into code-server with its own CLI, opens the workbench in
// headless Chromium and runs every spec in test/e2e/specs/ in file-name order (NN-area.mjs), one browser
// session for all of them, so a later spec may rely on what an earlier one did (say so in its header).
// A spec exports `default async function (e2e)`; `e2e` holds the page, page objects (`quick`, see
// pages/workbench.mjs), `step(name, fn)` (one counted test), `shot(name)`, the workspace `ws`, `serverUrl` and
// code-server's `userDataDir` (its User/settings.json: a spec may change a setting there).
// Screenshots go to test-results/screenshots/ (--shots DIR: another folder, e.g. for a second host). Closing line
// "N passed, N failed"; exit 1 on any failure.
//
// It first builds every platform VSIX and the universal one (`npm run package:all`, which checks each one's
// native files) and installs the one for this machine (dist/vsix/acp-threads-linux-x64-<version>.vsix here).
//
//   node test/e2e/run.mjs [--vsix FILE] [--no-package] [--spec NAME-SUBSTRING]... [--shots DIR]
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  statSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { parseArgs, stripVTControlCharacters } from "node:util";
import { ROOT, codeServerCli, launchChromium, startCodeServer, stopwatch } from "../host/host.mjs";
import { QuickInput } from "./pages/workbench.mjs";

const { values: opt } = parseArgs({
  options: {
    vsix: { type: "string" },
    "no-package": { type: "boolean", default: false },
    spec: { type: "string", multiple: true, default: [] },
    shots: { type: "string", default: "test-results/screenshots" },
  },
});
const SHOTS = path.resolve(ROOT, opt.shots);
mkdirSync(SHOTS, { recursive: true });
const elapsed = stopwatch();
const log = (s) => console.log(`[e2e ${elapsed()}] ${s}`);
const results = [];
let page;
const shot = async (name) => {
  if (!page) return;
  const f = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: f }).catch(() => {});
  log(`screenshot ${path.relative(ROOT, f)}`);
};
async function step(name, fn) {
  const t = stopwatch();
  try {
    await fn();
    results.push(true);
    log(`ok   ${name} (${t()})`);
  } catch (e) {
    results.push(false);
    const why = brief(e);
    failures.push(`${name}: ${why}`);
    log(`FAIL ${name} (${t()}): ${why}`);
    await shot(`FAIL-${name.replace(/\W+/g, "-")}`);
  }
}
/** What failed, told again after the run with the extension's last warnings (CI shows only the end of the run). */
const failures = [];
/** The error's first line, and what Playwright was waiting for (its call log says; the first line does not). */
function brief(e) {
  const lines = stripVTControlCharacters(String(e?.message ?? e)).split("\n"); // Playwright colours its call log
  const waiting = lines.find((l) => /^\s*-\s*waiting for /.test(l))?.trim();
  return waiting ? `${lines[0]} (${waiting.replace(/^-\s*/, "")})` : lines[0];
}
/** The last warnings and errors of the ACP Threads Output channel in the kept user-data dir. */
function extensionWarnings(userDataDir, max = 20) {
  const found = [];
  const walk = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (/ACP Threads\.log$/.test(d.name)) found.push(p);
    }
  };
  try {
    walk(path.join(userDataDir, "logs"));
  } catch {
    return [];
  }
  const lines = found.flatMap((f) => readFileSync(f, "utf8").split("\n")).filter((l) => /\[(warning|error)\]/.test(l));
  return lines.slice(-max).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
}

const specDir = path.join(ROOT, "test/e2e/specs");
// A chosen spec brings the specs it relies on: 01-workbench (opens the workbench, imports the fixture history)
// always, and those it names in `export const needs = ["02-spawn", …]`.
const WORKBENCH = "01-workbench.mjs";
const all = readdirSync(specDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort();
const chosen = new Set(all.filter((f) => opt.spec.length === 0 || opt.spec.some((s) => f.includes(s))));
if (!chosen.size) throw new Error(`no spec in ${path.relative(ROOT, specDir)} matches ${opt.spec.join(", ")}`);
chosen.add(WORKBENCH);
for (const file of [...chosen]) {
  const { needs = [] } = await import(pathToFileURL(path.join(specDir, file)).href);
  for (const n of needs) chosen.add(all.find((f) => f.startsWith(n)) ?? n);
}
const specs = all.filter((f) => chosen.has(f));

const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
opt.vsix ??= path.join(ROOT, `dist/vsix/acp-threads-${process.platform}-${process.arch}-${version}.vsix`);
if (!opt["no-package"]) {
  log("npm run package:all");
  const r = spawnSync("npm", ["run", "package:all", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run package:all failed (a package is missing or has the wrong files)");
}
if (!existsSync(opt.vsix)) throw new Error(`no VSIX at ${opt.vsix}`);
// dist/ is shared with every other build in this tree: make sure no bundle went in half-written.
const sizes = spawnSync(
  "python3",
  [
    "-c",
    "import sys,zipfile,json; print(json.dumps({i.filename: i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist()}))",
    opt.vsix,
  ],
  { encoding: "utf8" },
);
if (sizes.status === 0) {
  const inVsix = JSON.parse(sizes.stdout);
  log(`VSIX ${(statSync(opt.vsix).size / 1024).toFixed(0)} KB, ${Object.keys(inVsix).length} files`);
  for (const name of ["dist/extension.js", "dist/webview/thread.js", "dist/webview/recall.js"]) {
    if (!(inVsix[`extension/${name}`] > 1000))
      throw new Error(`${name} is missing or empty in ${opt.vsix}; rebuild with npm run package:all`);
  }
}

// The real agents (codex-acp 2.6 for the demo profile, claude-agent-acp 0.101 beside it) live in test/agents; install them when missing.
if (!existsSync(path.join(ROOT, "test/agents/node_modules/.bin/codex-acp"))) {
  const { spawnSync: sync } = await import("node:child_process");
  if (sync("bash", [path.join(ROOT, "test/agents/install.sh")], { stdio: "inherit" }).status !== 0)
    throw new Error("bash test/agents/install.sh failed");
}
// A sample workspace and the offline demo profile (codex-acp 2.6 and claude-agent-acp + scripted model server).
const ws = mkdtempSync(path.join(os.tmpdir(), "acp-e2e-ws-"));
writeFileSync(path.join(ws, "README.md"), "# e2e workspace\n");
const demo = spawn(process.execPath, [path.join(ROOT, "dist-test/host/demo-env.main.js"), "--workspace", ws], {
  stdio: ["ignore", "pipe", "inherit"],
});
const { profile, claude } = JSON.parse(
  await new Promise((resolve, reject) => {
    createInterface({ input: demo.stdout }).once("line", resolve);
    demo.once("exit", (c) => reject(new Error(`demo-env exited ${c}`)));
  }),
);
// A local ACP Registry (test/fixtures/registry) for "Add agent…": a binary fake agent, an npx and a uvx entry.
const registryEnv = spawn(process.execPath, [path.join(ROOT, "dist-test/host/registry-env.main.js")], {
  stdio: ["ignore", "pipe", "inherit"],
});
const { url: registryUrl } = JSON.parse(
  await new Promise((resolve, reject) => {
    createInterface({ input: registryEnv.stdout }).once("line", resolve);
    registryEnv.once("exit", (c) => reject(new Error(`registry-env exited ${c}`)));
  }),
);
const fakeAgent = path.join(ROOT, "dist-test/fixtures/fake-agents/stdio-agent.main.js");
const workDir = mkdtempSync(path.join(os.tmpdir(), "acp-e2e-"));
// "Existing history" for the first-run import offer: the Codex transcript fixtures under a private CODEX_HOME.
const codexHome = path.join(workDir, "codex-home");
cpSync(path.join(ROOT, "test/fixtures/transcripts/codex"), path.join(codexHome, "sessions"), { recursive: true });
let t = stopwatch();
await codeServerCli([
  "--user-data-dir",
  path.join(workDir, "user-data"),
  "--extensions-dir",
  path.join(workDir, "extensions"),
  "--install-extension",
  opt.vsix,
]);
log(`installed ${path.basename(opt.vsix)} in ${t()}`);
const server = await startCodeServer({
  workDir,
  env: {
    ACP_THREADS_HOME: path.join(workDir, "acp-home"),
    CODEX_HOME: codexHome,
    CLAUDE_CONFIG_DIR: path.join(workDir, "no-claude"),
  },
  settings: {
    "acpThreads.demoProfile": profile,
    // today's two adapters on the scripted model: codex-acp 2.6 (the demo profile) and claude-agent-acp 0.101
    "acpThreads.agents": {
      fake: { command: process.execPath, args: [fakeAgent], displayName: "Fake agent" },
      // the stdio fake agent with steering and session/fork advertised (08-protocol)
      protocol: {
        command: process.execPath,
        args: [fakeAgent],
        displayName: "Protocol demo",
        env: { FAKE_AGENT_STEERING: "1", FAKE_AGENT_FORK: "1" },
      },
      "claude-demo": claude,
    },
    "workbench.panel.defaultLocation": "bottom",
    "acpThreads.registry.url": registryUrl,
    // review comments are opt-in (src/vscode/ledger/review-comments.ts); 06-review-comments drives them
    "acpThreads.review.comments": true,
  },
});
const context = await launchChromium();
page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(e.message));
page.on("console", (m) => m.type() === "error" && process.env.ACP_E2E_VERBOSE && log(`console: ${m.text()}`));

try {
  const e2e = {
    page,
    quick: new QuickInput(page),
    step,
    shot,
    log,
    ws,
    serverUrl: server.url,
    root: ROOT,
    userDataDir: server.userDataDir,
  };
  for (const file of specs) {
    log(`spec ${file}`);
    const { default: spec } = await import(pathToFileURL(path.join(specDir, file)).href);
    // A spec that throws outside its steps counts as one failure; the next spec still runs.
    await spec(e2e).catch(async (e) => {
      results.push(false);
      const why = brief(e);
      failures.push(`${file} outside its steps: ${why}`);
      log(`FAIL ${file} outside its steps: ${why}`);
      await shot(`FAIL-${file.replace(/\W+/g, "-")}`);
    });
  }
} finally {
  await context.close().catch(() => {});
  const failed = results.some((ok) => !ok);
  await server.stop({ keep: failed });
  if (failed) {
    log(`kept ${workDir} for its logs`);
    // told in the form scripts/test.mjs repeats at the end of `npm test`
    console.log(`\u2716 failing tests:\n${failures.map((f) => `  ${f}`).join("\n")}`);
    const warned = extensionWarnings(server.userDataDir);
    if (warned.length)
      console.log(`  the extension's last warnings and errors:\n${warned.map((l) => `    ${l}`).join("\n")}`);
  }
  demo.kill("SIGTERM");
  registryEnv.kill("SIGTERM");
  rmSync(ws, { recursive: true, force: true });
}
const passed = results.filter(Boolean).length;
log(`done in ${elapsed()}`);
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(results.length - passed ? 1 : 0);
