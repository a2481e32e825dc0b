#!/usr/bin/env node
// Browser e2e: installs the packaged VSIX into code-server with its own CLI, opens the workbench in headless
// Chromium and drives it as a person would. Screenshots go to test-results/screenshots/. Closing line
// "N passed, N failed"; exit 1 on any failure.
//
//   node test/e2e/run.mjs [--vsix dist/acp-threads.vsix] [--no-package]
import { spawn, spawnSync } from "node:child_process";
import { cpSync, statSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ROOT, codeServerCli, launchChromium, startCodeServer, stopwatch } from "../host/host.mjs";

const { values: opt } = parseArgs({
  options: {
    vsix: { type: "string", default: path.join(ROOT, "dist/acp-threads.vsix") },
    "no-package": { type: "boolean", default: false },
  },
});
const SHOTS = path.join(ROOT, "test-results", "screenshots");
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
    log(`FAIL ${name} (${t()}): ${String(e?.message ?? e).split("\n")[0]}`);
    await shot(`FAIL-${name.replace(/\W+/g, "-")}`);
  }
}

if (!opt["no-package"]) {
  log("npm run package");
  const r = spawnSync("npm", ["run", "package", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run package failed");
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
      throw new Error(`${name} is missing or empty in ${opt.vsix}; rebuild with npm run package`);
  }
}

// The real agents (codex-acp for the demo profile) live in test/agents; install them when missing.
if (!existsSync(path.join(ROOT, "test/agents/node_modules/.bin/codex-acp"))) {
  const { spawnSync: sync } = await import("node:child_process");
  if (sync("bash", [path.join(ROOT, "test/agents/install.sh")], { stdio: "inherit" }).status !== 0)
    throw new Error("bash test/agents/install.sh failed");
}
// A sample workspace and the offline demo profile (codex-acp + scripted model server).
const ws = mkdtempSync(path.join(os.tmpdir(), "acp-e2e-ws-"));
writeFileSync(path.join(ws, "README.md"), "# e2e workspace\n");
const demo = spawn(process.execPath, [path.join(ROOT, "dist-test/host/demo-env.main.js"), "--workspace", ws], {
  stdio: ["ignore", "pipe", "inherit"],
});
const { profile } = JSON.parse(
  await new Promise((resolve, reject) => {
    createInterface({ input: demo.stdout }).once("line", resolve);
    demo.once("exit", (c) => reject(new Error(`demo-env exited ${c}`)));
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
    "acpThreads.agents": { fake: { command: process.execPath, args: [fakeAgent], displayName: "Fake agent" } },
    "workbench.panel.defaultLocation": "bottom",
  },
});
const context = await launchChromium();
page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(e.message));
page.on("console", (m) => m.type() === "error" && process.env.ACP_E2E_VERBOSE && log(`console: ${m.text()}`));
const quick = page.locator(".quick-input-widget");

async function openPalette(command) {
  await page.keyboard.press("F1");
  await quick.waitFor({ state: "visible" });
  await quick.locator("input.input").first().fill(`>${command}`);
  await quick.locator(".monaco-list-row.focused", { hasText: command }).first().waitFor();
}
async function palette(command) {
  await openPalette(command);
  await page.keyboard.press("Enter");
}
async function pick(text) {
  await quick.locator(".monaco-list-row", { hasText: text }).first().waitFor({ timeout: 20000 });
  await quick.locator("input.input").first().fill(text);
  await quick.locator(".monaco-list-row.focused", { hasText: text }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press("Enter");
}
async function answerInput(title, text) {
  // The input box reuses the quick-input widget: wait for its title so no keystroke lands in the old pick.
  await quick.locator(".quick-input-title", { hasText: title }).waitFor({ timeout: 30000 });
  // fill() rather than typing: keystrokes sent while the box is still taking focus can be lost.
  const box = quick.locator("input.input").first();
  await box.fill(text);
  if ((await box.inputValue()) !== text) throw new Error(`the input box did not take "${text}"`);
  await page.keyboard.press("Enter");
}
/** The thread panel's content frame: the webview frame that has our #entries list and this title. */
async function threadFrame(title) {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      const t = await f
        .locator("#title")
        .textContent({ timeout: 200 })
        .catch(() => null);
      if (t && t.includes(title)) return f;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no thread panel titled "${title}"`);
}
async function spawnFromPalette(agentLabel, task) {
  await palette("ACP Threads: Spawn coding agent");
  await pick(agentLabel);
  await answerInput(agentLabel, task);
  await pick("Session");
}

try {
  await step("workbench loads with the ACP Threads container", async () => {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(ws)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
    await page.getByRole("tab", { name: /ACP Threads/ }).waitFor({ timeout: 60000 });
    await page.getByRole("tab", { name: /ACP Threads/ }).click();
    await page.locator(".pane-header", { hasText: "Sessions" }).waitFor();
    await shot("01-workbench");
  });

  await step("first activation offers to import Codex history, and the import runs", async () => {
    const offer = page.locator(".notification-toast", { hasText: "existing Codex and Claude Code sessions" }).first();
    await offer.waitFor({ timeout: 30000 });
    await shot("01b-import-offer");
    await offer.getByRole("button", { name: "Import" }).click();
    await page.locator(".notification-toast", { hasText: "Recall imported" }).first().waitFor({ timeout: 60000 });
  });

  let frame;
  await step("palette → spawn the demo Codex agent → the thread panel streams", async () => {
    await openPalette("ACP Threads: Spawn coding agent");
    await shot("02-palette");
    await page.keyboard.press("Enter");
    await quick.locator(".monaco-list-row", { hasText: "Demo: Codex" }).first().waitFor({ timeout: 30000 });
    await shot("03-agent-pick");
    await pick("Demo: Codex");
    await answerInput("Demo: Codex", "create hello.txt containing hi from the browser");
    await pick("Session");
    frame = await threadFrame("create hello.txt");
    await frame.locator(".msg.user", { hasText: "create hello.txt" }).waitFor({ timeout: 30000 });
  });

  await step("the permission prompt is clicked and the file is written", async () => {
    const allow = frame.locator(".permission:not(.answered) button.perm-option.allow").first();
    await allow.waitFor({ timeout: 60000 });
    await shot("04-permission-prompt");
    await allow.click();
    const file = path.join(ws, "hello.txt");
    const deadline = Date.now() + 60000;
    while (!(existsSync(file) && readFileSync(file, "utf8").includes("hi from the browser"))) {
      if (Date.now() > deadline) throw new Error("hello.txt was not written");
      await new Promise((r) => setTimeout(r, 250));
    }
    await frame.locator(".msg.agent").last().waitFor({ timeout: 60000 });
    await frame.locator("#status", { hasText: "idle" }).waitFor({ timeout: 60000 });
    await shot("05-file-written");
  });

  await step("the session shows under Live in the sessions view", async () => {
    await page
      .getByRole("treeitem", { name: /create hello\.txt/ })
      .first()
      .waitFor({ timeout: 15000 });
    await shot("06-sessions-view");
  });

  await step("an agent's terminal is visible as an integrated terminal", async () => {
    await spawnFromPalette("Fake agent", "terminal echo e2e-terminal-output");
    const rows = page.locator(".terminal-wrapper .xterm-rows", { hasText: "e2e-terminal-output" }).first();
    await rows.waitFor({ timeout: 30000 });
    const f2 = await threadFrame("terminal echo");
    await f2.locator(".msg.agent", { hasText: "exit 0" }).waitFor({ timeout: 30000 });
    await shot("07-terminal");
  });
  await step("the recall view finds the session by a word from it", async () => {
    await palette("ACP Threads: Search past sessions");
    let recall;
    for (let i = 0; i < 60 && !recall; i++) {
      for (const f of page.frames())
        if (
          await f
            .locator("#q")
            .count()
            .catch(() => 0)
        )
          recall = f;
      if (!recall) await new Promise((r) => setTimeout(r, 250));
    }
    if (!recall) throw new Error("no recall view frame");
    await recall.locator("#scope-all").check();
    await recall.locator("#q").fill("browser");
    await recall.locator(".session", { hasText: "create hello.txt" }).first().waitFor({ timeout: 20000 });
    await recall
      .locator("mark", { hasText: /browser/i })
      .first()
      .waitFor();
    await shot("08-recall");
    await recall.locator("#q").fill("migration runner");
    await recall.locator(".session", { hasText: "Codex" }).first().waitFor({ timeout: 20000 });
    await shot("09-recall-imported-codex");
  });
} finally {
  await context.close().catch(() => {});
  const failed = results.some((ok) => !ok);
  await server.stop({ keep: failed });
  if (failed) log(`kept ${workDir} for its logs`);
  demo.kill("SIGTERM");
  rmSync(ws, { recursive: true, force: true });
}
const passed = results.filter(Boolean).length;
log(`done in ${elapsed()}`);
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(results.length - passed ? 1 : 0);
