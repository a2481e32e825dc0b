// Latency of a real agent (codex-acp) driven through our engine vs acpx, the reference headless client, on the
// same scripted model (test/fixtures/model-server), in the same run on the same machine.
//   node dist-test/bench/agents.main.js [--rounds N]
// Figures (medians over N rounds): engine cold start (spawn + initialize + session/new), engine first and
// second turn on a warm session, acpx `exec` per turn (fresh agent each time), acpx session mode (`sessions new`
// then `prompt`, when it works on this Node). Goal: engine second turn <= 0.5x acpx.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createAgentRuntime } from "../src/core/acp/agent-runtime";
import {
  agentBin,
  agentsInstalled,
  makeRunDir,
  prepareAgentEnv,
  type AgentEnv,
} from "../test/fixtures/agent-env/index";
import { killProcessesWithHome, processesGoneWithHome } from "../test/fixtures/agent-env/procs";
import { startModelServer } from "../test/fixtures/model-server/index";

export interface AgentBenchResult {
  agent: string;
  rounds: number;
  engineColdStartMs: number;
  engineFirstTurnMs: number;
  engineSecondTurnMs: number;
  acpxExecMs: number;
  acpxSessionTurnMs: number | null;
  acpxSessionNote?: string;
  /** engine second turn / acpx exec per turn (lower is better; goal <= 0.5). */
  ratioVsAcpxExec: number;
  ratioVsAcpxSession: number | null;
  /** Agent processes still alive after acpx exited (killed by the bench; the npm launcher orphans codex's binary). */
  acpxLeftoverProcesses: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const prompt = (n: number) => `create f${n}.txt containing round ${n} and run \`echo ${n}\``;

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function engineRound(a: AgentEnv, ws: string, n: number): Promise<[cold: number, first: number, second: number]> {
  const rt = createAgentRuntime(
    {
      agent: { id: a.id, displayName: a.id, command: a.command, args: a.args },
      cwd: ws,
      permissionPolicy: "approve-all",
      env: a.vars,
    },
    { baseEnv: a.env },
  );
  try {
    const t0 = performance.now();
    const { sessionId } = await rt.ensureSession();
    const t1 = performance.now();
    const turn = async (p: string) => {
      const start = performance.now();
      let last = "";
      for await (const e of rt.runTurn(sessionId, p))
        last = e.type === "done" ? e.stopReason : e.type === "error" ? e.message : last;
      if (last !== "end_turn") throw new Error(`engine turn ended with ${last}`);
      return performance.now() - start;
    };
    const first = await turn(prompt(n * 10 + 1));
    const second = await turn(prompt(n * 10 + 2));
    return [t1 - t0, first, second];
  } finally {
    await rt.close();
  }
}

async function acpx(a: AgentEnv, ws: string, args: string[]): Promise<number> {
  const agentLine = [a.command, ...a.args].join(" ");
  const start = performance.now();
  const r = await run(
    agentBin("acpx"),
    [
      "--cwd",
      ws,
      "--approve-all",
      "--format",
      "quiet",
      "--timeout",
      "120",
      "--ttl",
      "5",
      "--agent",
      agentLine,
      ...args,
    ],
    ws,
    a.env,
  );
  if (r.code !== 0) throw new Error(`acpx ${args[0]} exited ${r.code}: ${r.out.slice(-400)}`);
  return performance.now() - start;
}

export async function benchAgents(opts: { rounds?: number } = {}): Promise<AgentBenchResult | null> {
  if (!agentsInstalled()) return null;
  const rounds = opts.rounds ?? 3;
  const runDir = makeRunDir("bench-agents-");
  const ws = join(runDir, "ws");
  mkdirSync(ws);
  const server = await startModelServer({ workspace: ws });
  const a = prepareAgentEnv("codex-acp", { modelUrl: server.url, workspace: ws, runDir });
  const cold: number[] = [];
  const first: number[] = [];
  const second: number[] = [];
  const exec: number[] = [];
  const session: number[] = [];
  let note: string | undefined;
  let leftovers: number;
  try {
    for (let n = 0; n < rounds; n++) {
      const [c, f, s] = await engineRound(a, ws, n);
      cold.push(c);
      first.push(f);
      second.push(s);
      exec.push(await acpx(a, ws, ["exec", prompt(n * 10 + 3)]));
    }
    try {
      await acpx(a, ws, ["sessions", "new"]);
      await acpx(a, ws, ["prompt", prompt(90)]); // warm-up: starts acpx's queue owner and the agent
      for (let n = 0; n < rounds; n++) session.push(await acpx(a, ws, ["prompt", prompt(91 + n)]));
    } catch (err) {
      note = String((err as Error).message ?? err)
        .split("\n")[0]
        .slice(0, 200);
    } finally {
      await run(
        agentBin("acpx"),
        ["--cwd", ws, "--agent", [a.command, ...a.args].join(" "), "sessions", "close"],
        ws,
        a.env,
      );
    }
    // acpx's queue owner may take its TTL to exit; what is alive after that is an orphan.
    leftovers = (await processesGoneWithHome(a.home, 8_000)).length;
  } finally {
    killProcessesWithHome(a.home);
    await server.close();
    rmSync(runDir, { recursive: true, force: true });
  }
  const sessionMs = session.length ? median(session) : null;
  const result: AgentBenchResult = {
    agent: "codex-acp",
    rounds,
    engineColdStartMs: median(cold),
    engineFirstTurnMs: median(first),
    engineSecondTurnMs: median(second),
    acpxExecMs: median(exec),
    acpxSessionTurnMs: sessionMs,
    ratioVsAcpxExec: median(second) / median(exec),
    ratioVsAcpxSession: sessionMs ? median(second) / sessionMs : null,
    acpxLeftoverProcesses: leftovers,
  };
  if (note) result.acpxSessionNote = note;
  return result;
}

function print(r: AgentBenchResult | null): void {
  if (!r) return void console.log("agents: skipped (real agents not installed: bash test/agents/install.sh)");
  const ms = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} ms`);
  console.log(`agents (${r.agent}, scripted model, median of ${r.rounds}):`);
  console.log(`  engine cold start (spawn+initialize+session/new)  ${ms(r.engineColdStartMs)}`);
  console.log(`  engine first turn                                 ${ms(r.engineFirstTurnMs)}`);
  console.log(`  engine second turn (warm session)                 ${ms(r.engineSecondTurnMs)}`);
  console.log(`  acpx exec, one turn (fresh agent)                 ${ms(r.acpxExecMs)}`);
  console.log(
    `  acpx session prompt, one turn                     ${ms(r.acpxSessionTurnMs)}${r.acpxSessionNote ? ` (${r.acpxSessionNote})` : ""}`,
  );
  console.log(`  ratio engine second turn / acpx exec              ${r.ratioVsAcpxExec.toFixed(2)}x (goal <= 0.5x)`);
  if (r.ratioVsAcpxSession !== null)
    console.log(`  ratio engine second turn / acpx session          ${r.ratioVsAcpxSession.toFixed(2)}x`);
  console.log(`  agent processes left alive after acpx              ${r.acpxLeftoverProcesses} (killed by the bench)`);
}

if (require.main === module) {
  const i = process.argv.indexOf("--rounds");
  benchAgents({ rounds: i > 0 ? Number(process.argv[i + 1]) : undefined }).then(print, (err: unknown) => {
    console.error("agents bench failed:", err);
    process.exitCode = 1;
  });
}
