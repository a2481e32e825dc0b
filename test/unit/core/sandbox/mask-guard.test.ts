/**
 * The mask guard (real bwrap): a denied `.env` inside a writable root keeps its mount over the file, which the
 * kernel drops once the file is replaced outside; the guard then stops what runs in the sandbox at once, says why,
 * and the plan starts nothing more. Fail closed after the fact: see deny-mask-hostile.test.ts for the instant.
 */
import assert from "node:assert/strict";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { noBwrap, sandboxWorld } from "../../../fixtures/sandbox-world";
import { spawnProcess, type ProcessExit } from "../../../../src/core/exec/spawn-process";
import { guardMasks, maskLostNotice } from "../../../../src/core/sandbox/mask-guard";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, sandboxedLaunch } from "../../../../src/core/sandbox/plan";

const skip = noBwrap;

test("the guard reports a replaced path once, and a deleted one; an untouched one never", async () => {
  await withTmpDir("sbx-guard-", async (dir) => {
    const [a, b, c] = ["a", "b", "c"].map((n) => join(dir, n)) as [string, string, string];
    for (const p of [a, b, c]) writeFileSync(p, "x");
    const guard = (await guardMasks([a, c]))!;
    const heard: string[] = [];
    guard.onLost((n) => heard.push(n));
    writeFileSync(b, "y"); // an event in the folder, nothing replaced
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(guard.lost(), undefined);
    writeFileSync(`${a}.tmp`, "new");
    renameSync(`${a}.tmp`, a);
    for (let i = 0; i < 100 && !heard.length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(heard, [maskLostNotice(a)]);
    const late: string[] = [];
    guard.onLost((n) => late.push(n));
    assert.deepEqual(late, [maskLostNotice(a)], "a listener that comes late hears it at once");
    guard.close();
  });
});

test("a sandboxed run is stopped with the notice when its denied .env is replaced outside", { skip }, async () => {
  await withTmpDir("sbx-guard-", async (dir) => {
    const { home, ws, tmp } = sandboxWorld(dir);
    const env = join(ws, ".env");
    writeFileSync(env, "TOKEN=0");
    const settings = { denyRead: [env] };
    const plan = await prepareSandbox(
      buildSandboxPolicy({ roots: [ws], agentId: "x", home, env: {}, tmpDir: tmp, settings }),
    );
    try {
      const proc = spawnProcess({
        command: "/bin/sh",
        args: ["-c", "echo ready; sleep 30"],
        cwd: ws,
        env: { PATH: process.env.PATH },
        pty: false,
        sandbox: plan,
      });
      let out = "";
      proc.onData((chunk) => (out += String(chunk)));
      const exit = new Promise<ProcessExit>((resolve) => proc.onExit(resolve));
      while (!out.includes("ready")) await new Promise((r) => setTimeout(r, 20));
      writeFileSync(`${env}.tmp`, "TOKEN=1");
      renameSync(`${env}.tmp`, env);
      const done = await Promise.race([exit, new Promise((r) => setTimeout(() => r("still running"), 10_000))]);
      assert.deepEqual(done, { exitCode: null, signal: "SIGKILL" });
      assert.match(
        out,
        new RegExp(`mask over ${env} was lost: .* replaced outside the sandbox; the agent was stopped`),
      );
      assert.throws(
        () => sandboxedLaunch(plan, { file: "/bin/true", args: [] }, ws),
        /cannot start in the sandbox: the sandbox's mask over .* was lost/,
      );
    } finally {
      await closeSandbox(plan);
    }
  });
});
