import assert from "node:assert/strict";
import { test } from "node:test";
import type { ExecRegistry } from "../../../../src/core/exec";
import { waitForOutput, withRegistry } from "./helpers";

const SHELL_ENV = { ...process.env, PS1: "$ ", TERM: "xterm" };

function startShell(registry: ExecRegistry, cwd: string) {
  return registry.start({ command: "bash", args: ["--norc", "--noprofile", "-i"], cwd, env: SHELL_ENV, pty: true });
}

test("a PTY run starts at 120x30 and a resize reaches the program", async () => {
  await withRegistry(async (registry, dir) => {
    const run = startShell(registry, dir);
    run.submit("stty size");
    await waitForOutput(run, "30 120");
    registry.resize(run.id, 80, 20);
    run.submit("stty size");
    await waitForOutput(run, "20 80");
    await run.kill();
  });
});

test("submit runs a line in an interactive shell", async () => {
  await withRegistry(async (registry, dir) => {
    const run = startShell(registry, dir);
    registry.submit(run.id, "echo $((6 * 7))-done");
    await waitForOutput(run, "42-done");
    registry.submit(run.id, "exit 7");
    const info = await run.exited;
    assert.equal(info.status, "exited");
    assert.equal(info.exitCode, 7);
  });
});

test("send-keys C-c interrupts a sleep in the shell and the shell keeps going", async () => {
  await withRegistry(async (registry, dir) => {
    const run = startShell(registry, dir);
    run.submit("sleep 100; echo after-sleep-$?");
    await waitForOutput(run, "sleep 100");
    // Give bash a moment to fork the sleep before interrupting it.
    await new Promise((r) => setTimeout(r, 300));
    const before = Date.now();
    registry.sendKeys(run.id, ["C-c"]);
    run.submit("echo still-here");
    const text = await waitForOutput(run, /still-here\r?\n/);
    assert.ok(Date.now() - before < 50_000, "the sleep did not run to its end");
    assert.ok(!text.includes("after-sleep-0"), "the sleep was interrupted, not completed");
    assert.equal(run.running, true);
    registry.sendKeys(run.id, ["C-d"]);
    const info = await run.exited;
    assert.equal(info.status, "exited");
  });
});

test("send-keys on pipes turns C-c into SIGINT for the process group", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({ command: "sh", args: ["-c", "echo ready; sleep 100"], cwd: dir });
    await waitForOutput(run, "ready");
    registry.sendKeys(run.id, ["C-c"]);
    const info = await run.exited;
    assert.equal(info.status, "killed");
    assert.equal(info.signal, "SIGINT");
  });
});

test("writing to a run's stdin reaches the program and C-d closes it", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({ command: "cat", args: [], cwd: dir });
    registry.write(run.id, "typed input\n");
    await waitForOutput(run, "typed input");
    registry.sendKeys(run.id, ["C-d"]);
    const info = await run.exited;
    assert.equal(info.exitCode, 0);
  });
});
