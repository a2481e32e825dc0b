/**
 * Exec runs inside the sandbox (#34), on pipes and on a pty: the workspace is writable, the rest read-only, a
 * secret unreadable; a pty run keeps its controlling terminal (no `--new-session`: job control, stty and
 * Ctrl-C work); kill ends the group, the program inside bwrap included.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ExecRegistry } from "../../../../src/core/exec";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { prepareSandbox, type SandboxPlan } from "../../../../src/core/sandbox/plan";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { noBwrap, sandboxWorld } from "../../../fixtures/sandbox-world";
import { pidAlive, waitForOutput, waitUntil, withRegistry } from "../exec/helpers";

const skip = noBwrap;

async function sandboxIn(dir: string): Promise<{ home: string; ws: string; sandbox: SandboxPlan }> {
  const { home, ws, tmp } = sandboxWorld(dir);
  const policy = buildSandboxPolicy({ roots: [ws], agentId: "codex", home, env: {}, tmpDir: tmp });
  return { home, ws, sandbox: await prepareSandbox(policy) };
}

const both = (fn: (registry: ExecRegistry, dir: string) => Promise<void>) => () =>
  withTmpDir("sbx-exec-", (dir) => withRegistry((registry) => fn(registry, dir)));

test(
  "a sandboxed exec run on pipes: writes in the workspace only, no secret, recorded as sandboxed",
  { skip },
  both(async (registry, dir) => {
    const { home, ws, sandbox } = await sandboxIn(dir);
    const script = `echo ok > in.txt; echo x > ${home}/out.txt; cat ${home}/.ssh/id_ed25519; echo done`;
    const run = registry.start({ command: "sh", args: ["-c", script], cwd: ws, sandbox });
    const info = await run.exited;
    const text = registry.log(run.id).text;
    assert.match(text, /out\.txt: Read-only file system/);
    assert.doesNotMatch(text, /PRIVATE KEY/);
    assert.equal(existsSync(join(ws, "in.txt")), true);
    assert.equal(existsSync(join(home, "out.txt")), false);
    assert.equal(info.sandboxed, true);
  }),
);

test(
  "a sandboxed pty run keeps its terminal (stty, Ctrl-C) and kill ends it inside bwrap",
  { skip },
  both(async (registry, dir) => {
    const { ws, sandbox } = await sandboxIn(dir);
    const env = { ...process.env, PS1: "$ ", TERM: "xterm" };
    const run = registry.start({
      command: "bash",
      args: ["--norc", "--noprofile", "-i"],
      cwd: ws,
      env,
      pty: true,
      sandbox,
    });
    const pid = run.info.pid!;
    try {
      // bwrap shows the terminal as /dev/console inside its fresh /dev; it is still the run's pty
      run.submit("stty size; tty");
      await waitForOutput(run, /30 120\r?\n\/dev\/console/);
      run.submit("sleep 100");
      await waitForOutput(run, "sleep 100");
      await new Promise((r) => setTimeout(r, 300));
      registry.sendKeys(run.id, ["C-c"]);
      run.submit("echo still-$((40 + 2))");
      await waitForOutput(run, /still-42\r?\n/);
      run.submit("sleep 300 & echo bg-$!");
      await waitForOutput(run, /bg-\d+/);
    } finally {
      await run.kill(500);
    }
    await waitUntil(() => !pidAlive(pid), "the run's leader is gone");
    const alive = spawnSync("ps", ["-o", "stat=,args=", "-g", String(pid)], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((line) => line.trim() && !line.trim().startsWith("Z"));
    assert.deepEqual(alive, [], "the background sleep inside the sandbox is gone too");
  }),
);
