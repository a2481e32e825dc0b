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

// Waits on what bash prints, never on the terminal's echo of what was typed ("still-$((1 + 1))-here" prints
// "still-2-here"; the echoed line does not hold it). A C-c that comes while bash is still starting the sleep (under
// load, before the sleep owns the terminal) reaches bash, not the sleep, and the terminal drops what was typed
// ahead: the interrupt and the line are sent again until bash answers. This hung a loaded run for ten minutes
// when it waited on the echo and sent C-d while the sleep still ran.
test("send-keys C-c interrupts a sleep in the shell and the shell keeps going", { timeout: 120_000 }, async () => {
  await withRegistry(async (registry, dir) => {
    const run = startShell(registry, dir);
    run.submit("printf 'sleep-%s\\n' started; sleep 100; echo after-sleep-$?");
    await waitForOutput(run, /sleep-started\r?\n/);
    const before = Date.now();
    let text = "";
    for (let tries = 0; !/still-2-here\r?\n/.test(text); tries++) {
      assert.ok(tries < 20, `bash did not answer after ${tries} interrupts:\n${text}`);
      await new Promise((r) => setTimeout(r, 300)); // a moment for bash to start the sleep, or to settle
      registry.sendKeys(run.id, ["C-c"]);
      run.submit("echo still-$((1 + 1))-here");
      text = await waitForOutput(run, /still-2-here\r?\n/, 2_000).catch(() => run.read(0, 4 * 1024 * 1024).text);
    }
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
