/**
 * The spawner (src/core/platform/spawner-main.ts, dist/spawner.js) and its host side (spawner-client.ts) with
 * real processes: fake agents run through it, stdin EOF, the group kill, a dead spawner's fallback, the host's
 * death, a start error reported like the direct path's, and `run`.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { guardAgainstParentDeath } from "../../../../src/core/acp/parent-guard";
import { spawnAgent, type AgentProcess } from "../../../../src/core/acp/spawn";
import type { AgentSpec } from "../../../../src/core/model/agent";
import { runCommand, setCommandRunner } from "../../../../src/core/platform/run-to-end";
import { SpawnerLauncher } from "../../../../src/core/platform/spawner-client";
import { gitInfo, gitInfoAsync } from "../../../../src/core/store/git-info";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { collect, outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { isAlive as alive } from "../../../../src/core/exec/proc";
import { waitFor } from "../../../fixtures/spawner/wait";

const SPAWNER_JS = join(repoRoot(), "dist", "spawner.js");
const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
const HOST_JS = join(repoRoot(), "dist-test/fixtures/spawner/host.main.js");
const posix = process.platform !== "win32";

const fakeAgent = (scenario = "default"): AgentSpec => ({
  id: "fake-stdio",
  displayName: "Fake stdio agent",
  command: process.execPath,
  args: [AGENT_JS, scenario],
});
const sh = (script: string): AgentSpec => ({ id: "sh", displayName: "sh", command: "/bin/sh", args: ["-c", script] });

function firstLine(proc: AgentProcess | NodeJS.ReadableStream): Promise<string> {
  const stream = "stdout" in proc ? proc.stdout : proc;
  return new Promise((resolve) => {
    let buf = "";
    const onData = (d: Buffer) => {
      buf += d.toString("utf8");
      const nl = buf.indexOf("\n");
      if (nl < 0) return;
      stream.off("data", onData);
      resolve(buf.slice(0, nl));
    };
    stream.on("data", onData);
  });
}

async function withLauncher(fn: (l: SpawnerLauncher) => Promise<void>, script = SPAWNER_JS): Promise<void> {
  const launcher = new SpawnerLauncher({ script, guard: (pid) => guardAgainstParentDeath(pid) });
  try {
    await fn(launcher);
  } finally {
    launcher.dispose();
  }
}

test("a fake agent runs through the spawner: turns, its pid, stop", { skip: !posix }, () =>
  withLauncher((launcher) =>
    withTmpDir("acp-spawner-", async (cwd) => {
      const rt = createAgentRuntime({ agent: fakeAgent(), cwd }, { launcher });
      try {
        const { sessionId } = await rt.ensureSession();
        assert.equal(outputText(await collect(rt.runTurn(sessionId, "hello"))), "echo: hello");
        assert.equal(outputText(await collect(rt.runTurn(sessionId, "stream 50"))).split("chunk").length, 51);
        const pid = rt.pid!;
        assert.ok(pid > 0 && alive(pid));
        assert.ok(launcher.alive && launcher.spawnerPid! > 0 && launcher.spawnerPid !== pid);
        await rt.close();
        await waitFor(() => !alive(pid), "the agent gone after close");
      } finally {
        await rt.close();
      }
    }),
  ),
);

test("stdin EOF reaches a spawner-started process, which exits by itself", { skip: !posix }, () =>
  withLauncher(async (launcher) => {
    const proc = spawnAgent(sh('cat >/dev/null; echo "eof seen" >&2; exit 5'), { cwd: "/", launcher });
    const exit = await proc.stop({ stdinGraceMs: 60_000 });
    assert.deepEqual(exit, { code: 5, signal: null });
    assert.deepEqual(proc.stderrTail(), ["eof seen"]);
  }),
);

test("stop ends the whole group, a grandchild ignoring SIGTERM included", { skip: !posix }, () =>
  withLauncher(async (launcher) => {
    const proc = spawnAgent(sh('trap "" TERM; (while :; do sleep 0.1; done) & echo $!; while :; do sleep 0.1; done'), {
      cwd: "/",
      launcher,
    });
    const grandchild = Number(await firstLine(proc));
    assert.ok(alive(grandchild));
    const exit = await proc.stop({ stdinGraceMs: 50, killGraceMs: 200 });
    assert.equal(exit.signal, "SIGKILL");
    await waitFor(() => !alive(grandchild), "the grandchild gone");
  }),
);

test("a start error is reported like the direct path's (missing binary)", { skip: !posix }, () =>
  withLauncher(async (launcher) => {
    const missing: AgentSpec = { id: "x", displayName: "x", command: "/nonexistent/agent-bin", args: [] };
    const direct = spawnAgent(missing, { cwd: "/" });
    const viaSpawner = spawnAgent(missing, { cwd: "/", launcher });
    assert.deepEqual(await viaSpawner.exited, await direct.exited);
    assert.deepEqual(viaSpawner.stderrTail(), direct.stderrTail());
    assert.match(viaSpawner.stderrTail().join("\n"), /ENOENT/);
    assert.ok(launcher.alive, "a failed start leaves the spawner up");
  }),
);

test("the spawner killed: its agent keeps working and is stopped, new launches go direct", { skip: !posix }, () =>
  withLauncher((launcher) =>
    withTmpDir("acp-spawner-", async (cwd) => {
      const rt = createAgentRuntime({ agent: fakeAgent("stubborn"), cwd }, { launcher });
      try {
        const { sessionId } = await rt.ensureSession();
        const spawner = launcher.spawnerPid!;
        process.kill(spawner, "SIGKILL");
        await waitFor(() => !launcher.alive, "the launcher noticed the dead spawner");
        assert.equal(outputText(await collect(rt.runTurn(sessionId, "hello"))), "echo: hello");
        const pid = rt.pid!;
        const later = spawnAgent(sh("echo direct; exit 0"), { cwd: "/", launcher });
        assert.equal(await firstLine(later), "direct");
        assert.deepEqual(await later.exited, { code: 0, signal: null });
        await rt.close();
        await waitFor(() => !alive(pid), "the stubborn agent gone after close");
      } finally {
        await rt.close();
      }
    }),
  ),
);

test("a spawner that cannot start: the launch is started directly, nothing lost", { skip: !posix }, () =>
  withLauncher(async (launcher) => {
    const proc = spawnAgent(sh("read line; echo got $line"), { cwd: "/", launcher });
    proc.stdin.write("ping\n");
    assert.equal(await firstLine(proc), "got ping");
    assert.deepEqual(await proc.exited, { code: 0, signal: null });
    assert.equal(launcher.alive, false);
  }, "/nonexistent/spawner.js"),
);

test("the host killed: the spawner ends the groups it started (SIGTERM, then SIGKILL)", { skip: !posix }, async () => {
  const host = spawn(process.execPath, [HOST_JS, SPAWNER_JS], { stdio: ["ignore", "pipe", "inherit"] });
  const [agent, spawner] = (await firstLine(host.stdout)).split(" ").map(Number) as [number, number];
  assert.ok(alive(agent) && alive(spawner));
  host.kill("SIGKILL");
  await waitFor(() => !alive(agent), "the agent gone after the host died");
  await waitFor(() => !alive(spawner), "the spawner gone after it reaped");
});

test("run: a short command to completion through the spawner (git), and directly after it died", { skip: !posix }, () =>
  withLauncher(async (launcher) => {
    const ok = await launcher.run({ file: "git", args: ["--version"], cwd: "/" });
    assert.equal(ok.code, 0);
    assert.match(ok.stdout, /^git version/);
    const bad = await launcher.run({ file: "/nonexistent/git", args: [], cwd: "/" });
    assert.equal(bad.error?.code, "ENOENT");
    const input = await launcher.run({
      file: "/bin/sh",
      args: ["-c", "cat; echo err >&2; exit 3"],
      cwd: "/",
      input: "in",
    });
    assert.deepEqual(input, { code: 3, signal: null, stdout: "in", stderr: "err\n" });
    process.kill(launcher.spawnerPid!, "SIGKILL");
    await waitFor(() => !launcher.alive, "the launcher noticed the dead spawner");
    assert.match((await launcher.run({ file: "git", args: ["--version"], cwd: "/" })).stdout, /^git version/);
  }),
);

test(
  "the session start's git facts run through the spawner once the host installed it as the command runner",
  { skip: !posix },
  () =>
    withLauncher((launcher) =>
      withTmpDir("acp-spawner-git-", async (dir) => {
        const direct = await gitInfoAsync(dir);
        const restore = setCommandRunner((req) => launcher.run(req));
        try {
          assert.deepEqual(await gitInfoAsync(dir), direct);
          assert.deepEqual(await gitInfoAsync(repoRoot()), gitInfo(repoRoot()));
          assert.ok(launcher.spawnerPid! > 0, "the spawner ran them");
          const slow = await runCommand({ file: "/bin/sh", args: ["-c", "sleep 30"], cwd: dir, timeoutMs: 100 });
          assert.equal(slow.signal, "SIGTERM");
        } finally {
          restore();
        }
      }),
    ),
);

test(
  "a process that exits by itself leaves no open socket behind (an open one would hold its streams and session)",
  { skip: !posix },
  () =>
    withLauncher(async (launcher) => {
      const pipes = () => process.getActiveResourcesInfo().filter((r) => r === "PipeWrap").length;
      // the spawner's own IPC channel is a pipe too: start it first, then count
      await launcher.run({ file: "/bin/true", args: [], cwd: process.cwd() });
      const before = pipes();
      // the child writes on both outputs and exits while our side of its stdin is still open (never ended)
      const proc = spawnAgent(sh("echo out; echo err >&2; exit 3"), { cwd: process.cwd(), launcher });
      proc.stdout.resume();
      assert.equal((await proc.exited).code, 3);
      await waitFor(() => pipes() === before, `the child's sockets closed (${pipes()} pipes open, ${before} before)`);
    }),
);
