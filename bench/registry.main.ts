// Start-up of an agent installed from the ACP Registry vs the same package through `npx -y`: the time from
// spawn to the agent's answer to `initialize`, in the same run on the same machine (no assertions).
//   node dist-test/bench/registry.main.js [--rounds N] [--package NAME@VERSION]
// The installed agent runs from its bin script in `<data home>/agents/<id>/<version>`; npx resolves the package
// on every start (a registry round trip even with a warm npm cache). Needs npm and the npm registry.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installAgent } from "../src/core/registry";
import { findTool } from "../src/core/registry/run-tool";
import { makeRunDir, prepareAgentEnv } from "../test/fixtures/agent-env/index";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const rounds = Number(arg("--rounds", "5"));
const pkg = arg("--package", "@agentclientprotocol/codex-acp@2.6.0");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  },
})}\n`;

/** Milliseconds from spawn to the `initialize` answer; the agent's process group is killed after. */
function timeToInitialize(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let out = "";
    let err = "";
    const timer = setTimeout(() => finish(new Error(`no initialize answer in 120 s: ${err.slice(-500)}`)), 120_000);
    const finish = (e: Error | null, ms?: number) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      if (e) reject(e);
      else resolve(ms!);
    };
    child.stdout.on("data", (d: Buffer) => {
      out += d;
      for (const line of out.split("\n")) {
        if (line.includes('"id":1') && line.includes('"result"')) return finish(null, performance.now() - t0);
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", (e) => finish(e));
    child.on("exit", (code) => {
      if (!out.includes('"id":1')) finish(new Error(`${cmd} exited (${code}) before answering: ${err.slice(-500)}`));
    });
    child.stdin.write(INITIALIZE);
  });
}

async function main(): Promise<void> {
  const npx = findTool("npx");
  if (!npx) {
    console.log("registry bench skipped: npx is not on PATH");
    return;
  }
  const runDir = makeRunDir("bench-registry-");
  const ws = join(runDir, "ws");
  const dataHome = join(runDir, "data");
  mkdirSync(ws);
  try {
    const agent = prepareAgentEnv("codex-acp", { modelUrl: "http://127.0.0.1:9", workspace: ws, runDir });
    const config = join(agent.vars.CODEX_HOME!, "config.toml"); // codex 0.166 refuses "untrusted"
    writeFileSync(
      config,
      readFileSync(config, "utf8").replace(/approval_policy = "\w+"/, 'approval_policy = "on-request"'),
    );
    const name = pkg.slice(0, pkg.lastIndexOf("@"));
    const version = pkg.slice(pkg.lastIndexOf("@") + 1);
    const t0 = performance.now();
    const installed = await installAgent(
      { id: "bench-agent", name, version, description: "bench", distribution: { npx: { package: pkg } } },
      { dataHome, registryUrl: "bench" },
    );
    const installMs = performance.now() - t0;
    const env = agent.env;
    const inst: number[] = [];
    const viaNpx: number[] = [];
    for (let i = 0; i < rounds; i++) {
      inst.push(await timeToInitialize(installed.command, installed.args, ws, env));
      viaNpx.push(await timeToInitialize(npx, ["-y", pkg], ws, env));
    }
    const a = median(inst);
    const b = median(viaNpx);
    console.log(`package: ${pkg}, rounds: ${rounds}`);
    console.log(`install into the data home (npm, one time): ${installMs.toFixed(0)} ms`);
    console.log(
      `installed agent, spawn → initialize answer: median ${a.toFixed(0)} ms (${inst.map((x) => x.toFixed(0)).join(", ")})`,
    );
    console.log(
      `npx -y ${pkg}, spawn → initialize answer: median ${b.toFixed(0)} ms (${viaNpx.map((x) => x.toFixed(0)).join(", ")})`,
    );
    console.log(`ratio installed / npx: ${(a / b).toFixed(2)}`);
    console.log(JSON.stringify({ package: pkg, rounds, installMs, installedMs: a, npxMs: b, ratio: a / b }));
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
