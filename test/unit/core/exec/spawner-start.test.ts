/**
 * Exec runs started with `startAsync` through the spawner (#24), as the extension host starts them: the process
 * is the spawner's child (not this process's), and pid/pgid, output, input, resize, the exit code and the kill
 * by process group work as with `start`. Real processes (sh, bash on a real pty).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { AcpThreadsError } from "../../../../src/core/errors";
import type { ExecRegistry } from "../../../../src/core/exec";
import { setTerminalLauncher } from "../../../../src/core/platform/launcher";
import { loadPty, setPtySpawner } from "../../../../src/core/platform/pty";
import { SpawnerLauncher } from "../../../../src/core/platform/spawner-client";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { parentPid } from "../../../fixtures/agent-env/procs";
import { pidAlive, waitForOutput, waitUntil, withRegistry } from "./helpers";

const SPAWNER_JS = join(repoRoot(), "dist", "spawner.js");
const posix = process.platform !== "win32";
const GUARD_MS = 60_000; // a hang guard on a loaded machine, not a timing assertion

async function withSpawner(fn: (registry: ExecRegistry, dir: string, spawner: SpawnerLauncher) => Promise<void>) {
  const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
  const restoreTerminals = setTerminalLauncher(spawner);
  const restorePty = setPtySpawner((...a) => spawner.spawnPty(...a));
  try {
    await withRegistry((registry, dir) => fn(registry, dir, spawner));
  } finally {
    restorePty();
    restoreTerminals();
    spawner.dispose();
  }
}

function assertSpawnerChild(pid: number, spawner: SpawnerLauncher): void {
  assert.ok(pid > 0 && spawner.spawnerPid! > 0);
  const parent = parentPid(pid);
  if (parent !== undefined) assert.equal(parent, spawner.spawnerPid, "forked by the spawner, not by this process");
  assert.notEqual(parent, process.pid);
}

test("a pipe run through the spawner: pid, output, input, exit code, state", { skip: !posix }, () =>
  withSpawner(async (registry, dir, spawner) => {
    const run = await registry.startAsync({
      command: "sh",
      args: ["-c", "echo out; echo err >&2; read x; echo got-$x; exit 3"],
      cwd: dir,
    });
    assertSpawnerChild(run.info.pid!, spawner);
    assert.equal(run.info.pgid, run.info.pid);
    assert.equal(run.info.pty, false);
    await waitForOutput(run, "err", GUARD_MS);
    registry.submit(run.id, "hello");
    const info = await run.exited;
    assert.equal(info.status, "exited");
    assert.equal(info.exitCode, 3);
    const text = registry.log(run.id).text;
    for (const line of ["out\n", "err\n", "got-hello\n"]) assert.ok(text.includes(line), text);
    const state = JSON.parse(readFileSync(join(dir, `${run.id}.json`), "utf8"));
    assert.equal(state.pid, run.info.pid);
    assert.equal(state.status, "exited");
  }),
);

test("closeStdin through the spawner: the program reads EOF at once", { skip: !posix }, () =>
  withSpawner(async (registry, dir) => {
    const run = await registry.startAsync({ command: "cat", args: [], cwd: dir, closeStdin: true });
    assert.equal(run.acceptsInput, false);
    assert.equal((await run.exited).exitCode, 0);
  }),
);

test("a pty run through the spawner: 120x30, resize, input, exit code", { skip: !posix || !loadPty() }, () =>
  withSpawner(async (registry, dir, spawner) => {
    const env = { ...process.env, PS1: "$ ", TERM: "xterm" };
    const run = await registry.startAsync({
      command: "bash",
      args: ["--norc", "--noprofile", "-i"],
      cwd: dir,
      env,
      pty: true,
      cols: 120,
      rows: 30,
    });
    assert.equal(run.info.pty, true);
    assertSpawnerChild(run.info.pid!, spawner);
    run.submit("stty size");
    await waitForOutput(run, "30 120", GUARD_MS);
    registry.resize(run.id, 80, 20);
    run.submit("stty size");
    await waitForOutput(run, "20 80", GUARD_MS);
    run.submit("echo $((6 * 7))-done");
    await waitForOutput(run, "42-done", GUARD_MS);
    run.submit("exit 7");
    const info = await run.exited;
    assert.equal(info.status, "exited");
    assert.equal(info.exitCode, 7);
  }),
);

test("kill through the spawner reaches the run's whole process group", { skip: !posix }, () =>
  withSpawner(async (registry, dir, spawner) => {
    const run = await registry.startAsync({
      command: "sh",
      args: ["-c", "sleep 100 & echo kid $!; sleep 100 & echo kid $!; wait"],
      cwd: dir,
    });
    assertSpawnerChild(run.info.pid!, spawner);
    const text = await waitForOutput(run, /kid \d+\n.*kid \d+\n/s, GUARD_MS);
    const kids = [...text.matchAll(/kid (\d+)/g)].map((m) => Number(m[1]));
    assert.ok(kids.every(pidAlive));
    const info = await run.kill(1_000);
    assert.equal(info.status, "killed");
    await waitUntil(() => !kids.some(pidAlive) && !pidAlive(run.info.pid!), "the group is gone", GUARD_MS);
  }),
);

test("startAsync refuses like start: a missing command, a missing folder, a taken id", { skip: !posix }, () =>
  withSpawner(async (registry, dir) => {
    await assert.rejects(
      registry.startAsync({ command: "no-such-program-acp", args: [], cwd: dir }),
      (e: unknown) => e instanceof AcpThreadsError && e.code === "agent_not_found",
    );
    await assert.rejects(
      registry.startAsync({ command: "sh", args: [], cwd: join(dir, "missing") }),
      (e: unknown) => e instanceof AcpThreadsError && e.code === "usage",
    );
    const first = registry.startAsync({ id: "same-id", command: "sh", args: ["-c", "exit 0"], cwd: dir });
    await assert.rejects(
      registry.startAsync({ id: "same-id", command: "sh", args: ["-c", "exit 0"], cwd: dir }),
      /exec run same-id exists/,
    );
    await (
      await first
    ).exited;
  }),
);

test("a start still waiting for its pid when the registry shuts down is killed once it has one", { skip: !posix }, () =>
  withSpawner(async (registry, dir) => {
    const pending = registry.startAsync({ command: "sleep", args: ["100"], cwd: dir });
    const shutdown = registry.shutdown(true);
    await assert.rejects(pending, /shutting down/);
    await shutdown;
    const [run] = registry.list();
    assert.ok(run, "the run is recorded");
    assert.equal(run.status, "killed");
    assert.equal(pidAlive(run.pid!), false, "its process is gone");
  }),
);
