// Ctrl-C and --timeout in the middle of a real agent's long command: the CLI cancels the turn, exits with its
// documented code, and leaves no process behind (agent, npm launcher, or the command the agent started).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../fixtures/agent-env/index";
import {
  AGENT_TIMEOUT_MS,
  jsonLines,
  processesGone,
  processesOf,
  runArgs,
  setUp,
  skipUnlessInstalled,
  startCli,
} from "./harness";

/** A process's command line; "" when it exited between the listing and this read (codex runs short helpers). */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

// Longer than any test: the command must still be running when the turn is interrupted.
const LONG = "run `sleep 90`";
// Claude Code (in claude-agent-acp 0.101) refuses a standalone `sleep 90` ("Blocked: standalone sleep"): a command
// that never ends by itself instead.
const ENDLESS = "run `tail -f /dev/null`";
const isRunningCommand = (l: Record<string, unknown>) =>
  l.type === "tool_call" && (l.toolCall as { kind?: string }).kind === "execute";

test(
  "Ctrl-C during codex-acp's long command exits 130 and leaves no agent process behind",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const cli = startCli(t, runArgs(t, "approve-all", LONG));
      await cli.waitForLine(isRunningCommand);
      // The check below is only meaningful if it sees this run's processes: the CLI, the agent, the command.
      const alive = processesOf(t).map(cmdline);
      assert.ok(
        alive.some((c) => c.includes("cli.js")) && alive.some((c) => c.includes("codex-acp")),
        alive.join("\n"),
      );
      cli.child.kill("SIGINT");
      const r = await cli.result;
      assert.equal(r.code, 130, `stderr: ${r.stderr.slice(-1500)}`);
      assert.equal(jsonLines(r.stdout).at(-1)?.type, "summary");
      assert.deepEqual(await processesGone(t), [], "processes of this run still alive");
    } finally {
      await t.cleanup();
    }
  },
);

test(
  "--timeout during claude-agent-acp's long command exits 3 and leaves no agent process behind",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("claude-agent-acp");
    try {
      // `--timeout` bounds the whole run, claude-agent-acp's own start included: its command started 6.9 s in at
      // load 9 and 17–18 s in at load 10–12 (stop 55), so 15 s failed on a loaded machine. 40 s leaves twice the
      // worst seen; the command never ends by itself, so the timeout is still what ends the run.
      const cli = startCli(t, runArgs(t, "approve-all", ENDLESS, ["--timeout", "40"]));
      const r = await cli.result;
      assert.equal(r.code, 3, `stderr: ${r.stderr.slice(-1500)}`);
      assert.ok(jsonLines(r.stdout).some(isRunningCommand), "the command had started before the timeout");
      assert.deepEqual(await processesGone(t), [], "processes of this run still alive");
    } finally {
      await t.cleanup();
    }
  },
);

// When the host dies without closing its agents (SIGKILL, crash), only its end of the agent's stdin closes.
// gemini (and opencode) exit on that EOF; codex-acp and claude-agent-acp ignore it while idle, claude-code-acp
// most of the time, and they live on as orphans (seen as leftover codex-acp processes after killed code-server
// runs; mid-turn they notice only when a write fails). The engine's parent-death guard (src/core/acp/parent-guard.ts)
// kills their group once the host is gone.
const IDLE_HOST = join(repoRoot(), "dist-test", "interop", "idle-host.main.js");
for (const id of ["gemini", "codex-acp", "claude-agent-acp", "pi-acp", "claude-code-acp", "codex-acp-0.16"] as const) {
  test(
    `${id} does not outlive its host when the host is SIGKILLed while idle`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        const host = spawn(
          process.execPath,
          [IDLE_HOST, JSON.stringify({ command: t.agent.command, args: t.agent.args, cwd: t.workspace })],
          {
            cwd: t.workspace,
            env: t.agent.env,
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        const exited = new Promise((resolve) => host.on("close", resolve));
        let stderr = "";
        host.stderr.on("data", (d) => (stderr += d));
        const ready = await new Promise<string>((resolve, reject) => {
          host.stdout.on("data", (d: Buffer) => resolve(d.toString()));
          void exited.then(() => reject(new Error(`idle host exited: ${stderr}`)));
        });
        assert.match(ready, /"ready":true/);
        host.kill("SIGKILL");
        await exited;
        assert.deepEqual(await processesGone(t, 5_000), [], "processes of this run still alive");
      } finally {
        await t.cleanup();
      }
    },
  );
}
