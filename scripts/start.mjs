#!/usr/bin/env node
// `npm start`: the extension in a real VS Code (code-server) on 127.0.0.1, ready to use offline.
//   1. builds, installs prerequisites (test/host/setup.sh: Node 24 + code-server + Chromium; test/agents: the
//      real agents) — both idempotent and cached;
//   2. starts the scripted model server with an isolated codex-acp environment pointing at it, exposed as
//      the setting `acpThreads.demoProfile` ("Demo: Codex (local scripted model)"), so spawning from the
//      palette works with no API key and no network;
//   3. writes a sample workspace, links this checkout into code-server's extensions folder and opens it;
//   4. prints the URL and runs until Ctrl-C, then stops everything by process group.
// Options: --port N (default: a free port), --no-setup (skip step 1's installs), --no-build, --smoke (start, check the
// workbench answers, stop: used to test this script).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: opt } = parseArgs({
  options: {
    port: { type: "string" },
    "no-setup": { type: "boolean" },
    "no-build": { type: "boolean" },
    smoke: { type: "boolean" },
  },
});
const say = (s) => console.log(`[start] ${s}`);

function run(cmd, args) {
  say(`$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status})`);
}

if (!opt["no-setup"]) {
  run("bash", ["test/host/setup.sh"]);
  run("bash", ["test/agents/install.sh"]);
}
if (!opt["no-build"]) run(process.execPath, ["scripts/build.mjs"]);
const { startCodeServer } = await import("../test/host/host.mjs");

// A sample workspace and a data home that survive restarts (both under the gitignored .acp-threads/).
const data = path.join(ROOT, ".acp-threads");
const ws = path.join(data, "demo-workspace");
const home = path.join(data, "home");
mkdirSync(path.join(ws, "src"), { recursive: true });
mkdirSync(home, { recursive: true, mode: 0o700 });
if (!existsSync(path.join(ws, "README.md"))) {
  writeFileSync(
    path.join(ws, "README.md"),
    "# Demo workspace\n\nTry: ACP Threads: Spawn coding agent → Demo: Codex → `create hello.txt containing hi` → Session.\n",
  );
  writeFileSync(
    path.join(ws, "src", "greet.js"),
    'function greet(name) {\n  return "hello " + name;\n}\nmodule.exports = { greet };\n',
  );
}

const demo = spawn(process.execPath, [path.join(ROOT, "dist-test/host/demo-env.main.js"), "--workspace", ws], {
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
const { profile, modelUrl } = JSON.parse(
  await new Promise((resolve, reject) => {
    createInterface({ input: demo.stdout }).once("line", resolve);
    demo.once("exit", (c) => reject(new Error(`demo profile failed to start (exit ${c})`)));
  }),
);
say(`scripted model server at ${modelUrl}`);

const server = await startCodeServer({
  port: opt.port ? Number(opt.port) : undefined,
  env: { ACP_THREADS_HOME: home },
  settings: { "acpThreads.demoProfile": profile, "workbench.startupEditor": "none" },
});
// code-server loads an extension folder (or a symlink to one) placed in its extensions dir: no packaging.
symlinkSync(ROOT, path.join(server.extensionsDir, "acp-threads.acp-threads-0.1.0"), "dir");

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  say("stopping…");
  await server.stop();
  try {
    process.kill(-demo.pid, "SIGTERM");
  } catch {
    /* already gone */
  }
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

const url = `${server.url}/?folder=${encodeURIComponent(ws)}`;
console.log(
  `\nACP Threads is running in VS Code (code-server ${path.basename(server.url)}):\n\n  ${url}\n\n` +
    `Open it in a browser, then: Command Palette → "ACP Threads: Spawn coding agent" → "${profile.label}".\n` +
    `Data home: ${home}\nPress Ctrl-C to stop.\n`,
);

if (opt.smoke) {
  // Open the workbench in headless Chromium and check our activity-bar container is there.
  const { launchChromium } = await import("../test/host/host.mjs");
  const context = await launchChromium();
  let ok = false;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.getByRole("tab", { name: /ACP Threads/ }).click({ timeout: 60000 });
    await page.locator(".pane-header", { hasText: "Sessions" }).waitFor({ timeout: 30000 });
    mkdirSync(path.join(ROOT, "test-results", "screenshots"), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, "test-results", "screenshots", "start-smoke.png") });
    ok = true;
  } catch (err) {
    console.error(`smoke check failed: ${err.message}`);
  } finally {
    await context.close().catch(() => {});
  }
  if (ok) say("smoke check ok: the workbench shows ACP Threads");
  await stop(ok ? 0 : 1);
}
