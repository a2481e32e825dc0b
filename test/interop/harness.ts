// Shared set-up for the real-agent interop tests: a scripted model server, an isolated agent environment
// under /var/tmp, and helpers to drive the agent through our CLI (`dist/cli.js run`) or the engine directly.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { createAgentRuntime, type AcpAgentRuntime } from "../../src/core/acp/agent-runtime";
import type { RuntimeOptions } from "../../src/core/acp/runtime";
import type { PermissionPolicy } from "../../src/core/model/agent";
import type { RuntimeEvent } from "../../src/core/model/events";
import {
  agentsInstalled,
  makeRunDir,
  prepareAgentEnv,
  repoRoot,
  type AgentEnv,
  type AgentId,
} from "../fixtures/agent-env/index";
import { killProcessesWithHome, processesGoneWithHome, processesWithHome } from "../fixtures/agent-env/procs";
import { startModelServer, type ModelServer } from "../fixtures/model-server/index";

export const PROMPT = "create hello.txt containing hi and run `echo hi`";
/** Generous per-test limit: real agents take 2–20 s here; a hang must still end the suite. */
export const AGENT_TIMEOUT_MS = 120_000;
export const skipUnlessInstalled = agentsInstalled()
  ? false
  : "real agents not installed (bash test/agents/install.sh)";

export interface Interop {
  agent: AgentEnv;
  server: ModelServer;
  runDir: string;
  workspace: string;
  /** ACP_THREADS_HOME for the CLI (threads, permissions audit, protocol logs). */
  dataHome: string;
  cleanup(): Promise<void>;
}

/** `modelLog`: the model server appends every request it gets (`{route, body}` JSON lines) to `<runDir>/model.jsonl`. */
export async function setUp(id: AgentId, opts: { modelLog?: boolean } = {}): Promise<Interop> {
  const runDir = makeRunDir(`interop-${id}-`);
  const workspace = join(runDir, "ws");
  const dataHome = join(runDir, "acp-threads");
  mkdirSync(workspace);
  mkdirSync(dataHome);
  const server = await startModelServer({
    workspace,
    ...(opts.modelLog ? { logFile: join(runDir, "model.jsonl") } : {}),
  });
  const agent = prepareAgentEnv(id, { modelUrl: server.url, workspace, runDir });
  return {
    agent,
    server,
    runDir,
    workspace,
    dataHome,
    async cleanup() {
      // A failed test may leave its agent running; the tests that care assert on this before cleanup.
      killProcessesWithHome(agent.home);
      await server.close();
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  result: Promise<CliResult>;
  /** Resolves with the first stdout JSON line matching `pred` (rejects if the CLI exits first). */
  waitForLine(pred: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Starts `node dist/cli.js <args>` with the agent's isolated env (so the agent inherits it). Async: the model server shares this process. */
export function startCli(t: Interop, args: string[]): RunningCli {
  const child = spawn(process.execPath, [join(repoRoot(), "dist", "cli.js"), ...args], {
    cwd: t.workspace,
    env: { ...t.agent.env, ACP_THREADS_HOME: t.dataHome },
    stdio: ["ignore", "pipe", "pipe"],
    // Backstop for a hung CLI (its own --timeout should fire first): SIGTERM makes it cancel and close agents.
    timeout: AGENT_TIMEOUT_MS - 5_000,
  });
  let stdout = "";
  let stderr = "";
  const watchers: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] =
    [];
  child.stdout!.on("data", (d) => {
    stdout += d;
    for (const line of jsonLines(stdout)) {
      for (const w of watchers.splice(0).filter((w) => (w.pred(line) ? (w.resolve(line), false) : true)))
        watchers.push(w);
    }
  });
  child.stderr!.on("data", (d) => (stderr += d));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return {
    child,
    result,
    waitForLine: (pred) =>
      new Promise((resolve, reject) => {
        const hit = jsonLines(stdout).find(pred);
        if (hit) return resolve(hit);
        watchers.push({ pred, resolve });
        void result.then((r) =>
          reject(new Error(`the CLI exited (${r.code}) before the expected line\n${r.stderr.slice(-1500)}`)),
        );
      }),
  };
}

export function runCli(t: Interop, args: string[]): Promise<CliResult> {
  return startCli(t, args).result;
}

/** Arguments for `run --agent "<abs command> <args>" --permission P --format json --cwd WS --env K=V ... PROMPT...`. */
export function runArgs(
  t: Interop,
  permission: PermissionPolicy,
  prompts: string | string[] = PROMPT,
  extra: string[] = [],
): string[] {
  const agentLine = [t.agent.command, ...t.agent.args].map((w) => (/\s/.test(w) ? JSON.stringify(w) : w)).join(" ");
  const envFlags = Object.entries(t.agent.vars).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  return [
    "run",
    "--agent",
    agentLine,
    "--permission",
    permission,
    "--format",
    "json",
    "--cwd",
    t.workspace,
    ...envFlags,
    ...extra,
    "--",
    ...[prompts].flat(),
  ];
}

/** One `run` (one turn per prompt) to completion. */
export function runAgentTurn(
  t: Interop,
  permission: PermissionPolicy,
  prompts: string | string[] = PROMPT,
  extra: string[] = [],
): Promise<CliResult> {
  return runCli(t, runArgs(t, permission, prompts, extra));
}

/** Pids of live processes of this run (by its HOME): the CLI, the agent and anything it started. */
export const processesOf = (t: Interop): number[] => processesWithHome(t.agent.home);

/** Polls until no process of this run is left (or gives up after `limitMs`); returns what is still alive. */
export const processesGone = (t: Interop, limitMs?: number): Promise<number[]> =>
  processesGoneWithHome(t.agent.home, limitMs);

/** Parses JSON lines from stdout, ignoring anything that is not JSON. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** The engine runtime for the agent, with the isolated env as the base env. */
export function runtimeFor(
  t: Interop,
  permissionPolicy: PermissionPolicy = "approve-all",
  extra: Partial<RuntimeOptions> = {},
): AcpAgentRuntime {
  const spec = { id: t.agent.id, displayName: t.agent.id, command: t.agent.command, args: t.agent.args };
  return createAgentRuntime(
    { agent: spec, cwd: t.workspace, permissionPolicy, env: t.agent.vars, ...extra },
    { baseEnv: t.agent.env },
  );
}

/** Runs one turn to completion and returns every event (the last one is `done` or `error`). */
export async function collectTurn(
  rt: AcpAgentRuntime,
  sessionId: string,
  prompt: string | acp.ContentBlock[] = PROMPT,
): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const e of rt.runTurn(sessionId, prompt)) events.push(e);
  return events;
}

/** The final state of each tool call, keyed by id (tool_call events carry full merged state). */
export function toolCalls(events: RuntimeEvent[]) {
  const byId = new Map<string, Extract<RuntimeEvent, { type: "tool_call" }>["toolCall"]>();
  for (const e of events) if (e.type === "tool_call") byId.set(e.toolCall.toolCallId, e.toolCall);
  return [...byId.values()];
}

/** Methods of the requests the agent sent us (`<-` lines of the protocol log that carry an id and a method). */
export function agentRequests(logFile: string): string[] {
  const out: string[] = [];
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const m = / <- (\{.*)$/.exec(line);
    if (!m) continue;
    try {
      const msg = JSON.parse(m[1]) as { id?: unknown; method?: unknown };
      if (msg.id !== undefined && typeof msg.method === "string") out.push(msg.method);
    } catch {
      // A line cut by the log's entry cap: not one of the small requests we look for.
    }
  }
  return out;
}
