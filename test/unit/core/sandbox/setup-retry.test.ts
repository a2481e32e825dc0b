/**
 * A sandboxed launch whose bwrap set-up fails starts again, and only then (setup-retry.ts, real bwrap). Claude
 * rewrites `~/.claude.json` (tmp → rename) all the time, and a rename that lands while bwrap binds and remounts it
 * failed the start. Here a writer renames over the state file as fast as it can while the sandbox starts 100 times,
 * with the state file bound onto the real home (no `~/.netrc`; the hidden-home case is deny-mask-hostile.test.ts):
 * every start must run. A program that fails by itself (it ran: exit 1) is never started again, and a set-up that
 * keeps failing ends after the last attempt with each attempt's message, bwrap's words last.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { spawnAgent } from "../../../../src/core/acp/spawn";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, sandboxedLaunch, type SandboxPlan } from "../../../../src/core/sandbox/plan";
import { SETUP_ATTEMPTS } from "../../../../src/core/sandbox/setup-retry";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { noBwrap, ranWithBrokenDev, sandboxWorld, startsWhileRewritten } from "../../../fixtures/sandbox-world";

const skip = noBwrap;

async function claudeSandbox(dir: string): Promise<{ home: string; ws: string; plan: SandboxPlan }> {
  const { home, ws, tmp } = sandboxWorld(dir);
  writeFileSync(join(home, ".claude.json"), "{}");
  const policy = buildSandboxPolicy({ roots: [ws], agentId: "claude-acp", home, env: {}, tmpDir: tmp });
  return { home, ws, plan: await prepareSandbox(policy) };
}

let starts: { failures: string[] } | undefined;
const setupFailures = () => (starts?.failures ?? []).filter((f) => !ranWithBrokenDev(f));

test(
  "a start that loses the race with a writer renaming the state file is tried again, up to the bound",
  { skip },
  async () => {
    await withTmpDir("sbx-retry-", async (dir) => {
      const { home, ws, plan } = await claudeSandbox(dir);
      try {
        assert.ok(plan.retrySetup, "this bwrap reports on --json-status-fd");
        const state = join(home, ".claude.json");
        starts = { failures: startsWhileRewritten(plan, ws, state, `cat ${state} >/dev/null`, 100) };
        for (const failure of setupFailures()) {
          const tries = failure.split("\n").filter((l) => /^(\d+: )?bwrap: /.test(l)).length;
          assert.equal(tries, SETUP_ATTEMPTS, `a start that failed in its set-up was tried ${tries} times: ${failure}`);
        }
      } finally {
        await closeSandbox(plan);
      }
    });
  },
);

test(
  "none of those 100 starts fails",
  {
    skip,
    todo: "bounded attempts: under heavy load (the writer takes a core) every attempt can lose; 0 of 100 at ordinary load",
  },
  () => {
    const setup = setupFailures();
    assert.ok(starts, "the starts ran");
    assert.equal(setup.length, 0, `${setup.length} of 100 failed, first: ${setup.slice(0, 1).join(" | ")}`);
  },
);

test(
  "none of those 100 starts ran in a sandbox whose /dev/null cannot be opened",
  {
    skip,
    todo: "bwrap's race can also end in a set-up it reports as done, with /dev unusable (about 1 in 100 under load)",
  },
  () => {
    assert.ok(starts, "the starts ran");
    assert.deepEqual(starts.failures.filter(ranWithBrokenDev), []);
  },
);

test("a sandboxed program that fails by itself is not started again", { skip }, async () => {
  await withTmpDir("sbx-retry-", async (dir) => {
    const { ws, plan } = await claudeSandbox(dir);
    try {
      const count = join(ws, "count");
      const script = `echo ran >> ${count}; echo failing >&2; exit 1`;
      const launch = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", script] }, ws);
      const r = spawnSync(launch.file, launch.args, { cwd: ws, encoding: "utf8" });
      assert.equal(r.status, 1);
      assert.equal(readFileSync(count, "utf8"), "ran\n", "the program ran once");
      assert.equal(r.stderr, "failing\n", "no attempt notice");
      const seven = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", `echo ran >> ${count}; exit 7`] }, ws);
      assert.equal(spawnSync(seven.file, seven.args, { cwd: ws }).status, 7, "its own exit code");
      assert.equal(readFileSync(count, "utf8"), "ran\nran\n");
    } finally {
      await closeSandbox(plan);
    }
  });
});

test(
  "an agent whose sandbox set-up keeps failing stops after the last attempt with bwrap's words",
  { skip },
  async () => {
    await withTmpDir("sbx-retry-", async (dir) => {
      const { ws, plan } = await claudeSandbox(dir);
      try {
        // a writable path gone since the plan was made: bwrap fails in its set-up, after cloning, at every attempt
        const gone = join(dir, "gone");
        const broken: SandboxPlan = { ...plan, writable: [...plan.writable, gone] };
        const agent = spawnAgent(
          { id: "x", displayName: "x", command: "/bin/sh", args: ["-c", "echo started"] },
          {
            cwd: ws,
            sandbox: broken,
          },
        );
        const exit = await agent.exited;
        assert.deepEqual(exit, { code: 1, signal: null });
        const tail = agent.stderrTail();
        const bwrapSaid = tail.filter((l) => l === `bwrap: Can't find source path ${gone}: No such file or directory`);
        assert.equal(bwrapSaid.length, SETUP_ATTEMPTS, tail.join("\n"));
        assert.equal(
          tail.filter((l) => /^acp-threads: bwrap could not set the sandbox up/.test(l)).length,
          SETUP_ATTEMPTS - 1,
        );
        assert.equal(tail.at(-1), bwrapSaid[0], "bwrap's words last");
      } finally {
        await closeSandbox(plan);
      }
    });
  },
);

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

// The retrying shell stays bwrap's parent, so bwrap's --die-with-parent follows it: the shell must die with us.
test("a sandboxed program on pipes dies with the process that started it", { skip }, async () => {
  await withTmpDir("sbx-retry-", async (dir) => {
    const { ws, plan } = await claudeSandbox(dir);
    try {
      assert.ok(plan.retrySetup?.setpriv, "setpriv with --pdeathsig (util-linux) on this machine");
      const launch = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", "echo up; exec sleep 600"] }, ws);
      const starter = `const { spawn } = require("child_process"); const [file, ...args] = JSON.parse(process.argv[1]);
        const c = spawn(file, args, { detached: true, stdio: ["pipe", "pipe", "pipe"] });
        c.stdout.once("data", () => console.log(c.pid));`;
      const parent = spawn(process.execPath, ["-e", starter, JSON.stringify([launch.file, ...launch.args])], {
        cwd: ws,
        stdio: ["ignore", "pipe", "inherit"],
      });
      const [line] = (await once(parent.stdout, "data")) as [Buffer];
      const group = Number(String(line).trim());
      assert.ok(group > 0 && !gone(-group), "the sandboxed program runs");
      parent.kill("SIGKILL");
      await once(parent, "exit");
      for (let i = 0; i < 500 && !gone(-group); i++) await new Promise((r) => setTimeout(r, 20));
      const survived = !gone(-group);
      if (survived) process.kill(-group, "SIGKILL");
      assert.ok(!survived, "the launch's process group (shell, bwrap, sleep) ended with its parent");
    } finally {
      await closeSandbox(plan);
    }
  });
});
