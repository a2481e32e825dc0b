// Helpers shared by the host tests (run.mjs), the browser e2e (../e2e/run.mjs) and `npm start`:
// start code-server (VS Code server + its real Node extension host) on loopback in its own process group,
// run its CLI, and launch Debian's Chromium through playwright-core. Node 24 and code-server come from
// test/host/setup.sh, which records their paths in ~/.cache/vscode-host/current.json.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const VH = process.env.VSCODE_HOST_HOME ?? path.join(os.homedir(), ".cache", "vscode-host");
const current = existsSync(path.join(VH, "current.json"))
  ? JSON.parse(readFileSync(path.join(VH, "current.json"), "utf8"))
  : {};
export const NODE24 = process.env.NODE24 ?? current.node24;
export const CODE_SERVER = process.env.CODE_SERVER_DIR ?? current.codeServer;
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export function assertInstalled() {
  if (!NODE24 || !existsSync(NODE24) || !CODE_SERVER || !existsSync(CODE_SERVER)) {
    throw new Error(`Node 24 / code-server not found (${NODE24}, ${CODE_SERVER}): run bash test/host/setup.sh`);
  }
}

export const stopwatch = () => {
  const s = Date.now();
  return () => `${((Date.now() - s) / 1000).toFixed(1)}s`;
};
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Quiet, deterministic user settings; `trust` turns Workspace Trust on (off by default for tests). */
function userSettings({ trust, extra }) {
  return {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "security.workspace.trust.enabled": !!trust,
    "security.workspace.trust.startupPrompt": "never",
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "extensions.ignoreRecommendations": true,
    "workbench.enableExperiments": false,
    "chat.disableAIFeatures": true,
    "workbench.colorTheme": "Default Dark Modern",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    // xterm's DOM renderer: the e2e reads terminal text from the page.
    "terminal.integrated.gpuAcceleration": "off",
    // most suites and specs test the window's own sessions: the thread host's default (`auto`) is asked for where a
    // test means it (it removes this key or sets `auto`/`host`)
    "acpThreads.host.runSessions": "window",
    ...extra,
  };
}

/**
 * Starts code-server detached (own process group) and resolves when /healthz answers.
 * `stop()` ends the whole group (extension host, pty host, agents we spawned) and removes the temp dirs.
 */
export async function startCodeServer({ workDir, port, trust = false, settings = {}, env = {}, extraArgs = [] } = {}) {
  assertInstalled();
  port ??= await freePort();
  workDir ??= mkdtempSync(path.join(os.tmpdir(), "acp-host-"));
  const userDataDir = path.join(workDir, "user-data");
  const extensionsDir = path.join(workDir, "extensions");
  const tmpDir = path.join(workDir, "tmp"); // IPC sockets of the server land here, not in /tmp
  for (const d of [path.join(userDataDir, "User"), extensionsDir, tmpDir]) mkdirSync(d, { recursive: true });
  writeFileSync(
    path.join(userDataDir, "User", "settings.json"),
    JSON.stringify(userSettings({ trust, extra: settings }), null, 1),
  );
  const config = path.join(workDir, "config.yaml"); // keeps code-server from writing ~/.config/code-server
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    path.join(CODE_SERVER, "out/node/entry.js"),
    "--config",
    config,
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-getting-started-override",
    ...(trust ? [] : ["--disable-workspace-trust"]),
    "--user-data-dir",
    userDataDir,
    "--extensions-dir",
    extensionsDir,
    ...extraArgs,
  ];
  const logFile = path.join(workDir, "code-server.log");
  const out = createWriteStream(logFile);
  const proc = spawn(NODE24, args, {
    env: { ...process.env, TMPDIR: tmpDir, ...env, PATH: `${path.dirname(NODE24)}:${process.env.PATH}` },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const killGroup = (sig) => {
    try {
      process.kill(-proc.pid, sig);
      return true;
    } catch {
      return false;
    }
  };
  const onExit = () => killGroup("SIGKILL");
  process.on("exit", onExit);
  proc.stdout.pipe(out);
  proc.stderr.pipe(out);
  let exited = null;
  proc.on("exit", (code, sig) => (exited = { code, sig }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early ${JSON.stringify(exited)}; see ${logFile}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      killGroup("SIGKILL");
      throw new Error(`code-server did not answer within 60 s; see ${logFile}`);
    }
    await sleep(200);
  }
  const stop = async ({ keep = false } = {}) => {
    killGroup("SIGTERM");
    for (let i = 0; i < 50 && killGroup(0); i++) await sleep(100);
    killGroup("SIGKILL");
    process.off("exit", onExit);
    if (!keep && !process.env.ACP_HOST_KEEP) rmSync(workDir, { recursive: true, force: true });
  };
  return { url, port, authority: `127.0.0.1:${port}`, proc, stop, workDir, userDataDir, extensionsDir, logFile };
}

/** Runs the code-server CLI once (e.g. `--install-extension x.vsix`). */
export function codeServerCli(args) {
  assertInstalled();
  return new Promise((resolve, reject) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "acp-cs-cli-"));
    writeFileSync(path.join(dir, "config.yaml"), "auth: none\ncert: false\n");
    const p = spawn(
      NODE24,
      [path.join(CODE_SERVER, "out/node/entry.js"), "--config", path.join(dir, "config.yaml"), ...args],
      {
        env: { ...process.env, PATH: `${path.dirname(NODE24)}:${process.env.PATH}` },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("exit", (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code === 0) resolve(out);
      else reject(new Error(`code-server ${args.join(" ")} exited ${code}: ${out}`));
    });
  });
}

/** Headless Chromium with a throw-away profile; `context.close()` also removes the profile. */
export async function launchChromium({ viewport = { width: 1400, height: 900 } } = {}) {
  const { chromium } = createRequire(path.join(ROOT, "package.json"))("playwright-core");
  const profile = mkdtempSync(path.join(os.tmpdir(), "acp-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    rmSync(profile, { recursive: true, force: true });
  };
  return context;
}

export const remoteUri = (authority, p) => `vscode-remote://${authority}${p}`;

/** The workbench's own start-up chatter, dropped from echoed logs unless --verbose. */
export const LOG_NOISE =
  /^(Resolving connection token|Resolved connection token|Creating a socket|\[reconnection-grace-time\]|Updating additional builtin extensions cache|\[Service Worker\]|\[AgentHost|\[AccountPolicyGate\]|Canceled|.*ENOTFOUND open-vsx\.org|.*is deprecated\. navigator is now a global)/;
