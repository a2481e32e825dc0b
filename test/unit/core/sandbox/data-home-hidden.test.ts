/**
 * The data home inside a Linux sandbox (real bwrap): hidden as one folder, so a file we rewrite there (tmp, then
 * rename) stays hidden and never races the sandbox's start; the installed agents and runtimes stay readable; a
 * session root inside a hidden folder stays writable.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import {
  noBwrap,
  replaceByRename,
  sandboxedShell,
  startsWhileRewritten,
  sandboxWorld,
} from "../../../fixtures/sandbox-world";
import { homeLayout } from "../../../../src/core/platform/data-home";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, sandboxedLaunch } from "../../../../src/core/sandbox/plan";

const skip = noBwrap;

/** A sandbox world whose data home holds a Best of N record, an installed agent and a managed runtime. */
async function world(dir: string, roots?: (home: string) => string[]) {
  const { home, ws, tmp } = sandboxWorld(dir);
  const dataHome = join(home, ".local", "share", "acp-threads");
  const at = homeLayout(dataHome);
  mkdirSync(join(at.agentsDir, "x"), { recursive: true });
  mkdirSync(join(at.runtimesDir, "node-x"), { recursive: true });
  writeFileSync(join(at.agentsDir, "x", "agent.sh"), "echo agent-ran\n");
  writeFileSync(join(at.runtimesDir, "node-x", "VERSION"), "runtime-read\n");
  writeFileSync(at.bestOfFile, "first-record");
  const sessionRoots = roots?.(dataHome) ?? [ws];
  for (const root of sessionRoots) mkdirSync(root, { recursive: true });
  const policy = buildSandboxPolicy({ roots: sessionRoots, agentId: "x", home, env: {}, tmpDir: tmp, dataHome });
  return { ws, dataHome, at, plan: await prepareSandbox(policy) };
}

test(
  "hostile: a data-home file rewritten while the sandbox runs stays hidden (a mount over a file falls off its replaced inode)",
  { skip },
  async () => {
    await withTmpDir("sbx-home-", async (dir) => {
      const { ws, at, plan } = await world(dir);
      const go = join(dir, "go");
      const script = `cat ${at.bestOfFile} || echo refused-before; while [ ! -f ${go} ]; do sleep 0.05; done; cat ${at.bestOfFile} || echo refused-after`;
      const sh = sandboxedShell(plan, ws, script);
      await sh.until("refused-before");
      replaceByRename(at.bestOfFile, "other threads' prompts");
      writeFileSync(go, "");
      await sh.closed;
      await closeSandbox(plan);
      const { out, err } = sh.seen;
      assert.doesNotMatch(out, /first-record|other threads' prompts/, err);
      assert.match(out, /refused-before\n(.|\n)*refused-after/, err);
    });
  },
);

test(
  "hostile: sandboxes start while a data-home file is rewritten over and over (bwrap never fails to mount over it)",
  { skip },
  async () => {
    await withTmpDir("sbx-home-", async (dir) => {
      const { ws, at, plan } = await world(dir);
      // another process rewrites the record as fast as it can, as a Best of N's or the permissions' writer does
      try {
        const failures = startsWhileRewritten(plan, ws, at.bestOfFile, "true", 150);
        assert.equal(
          failures.length,
          0,
          `${failures.length} of 150 failed to start, first: ${failures.slice(0, 2).join(" | ")}`,
        );
      } finally {
        await closeSandbox(plan);
      }
    });
  },
);

test(
  "inside the hidden data home, the installed agents and runtimes stay readable, nothing else shows",
  { skip },
  async () => {
    await withTmpDir("sbx-home-", async (dir) => {
      const { ws, dataHome, at, plan } = await world(dir);
      const script = [
        `sh ${join(at.agentsDir, "x", "agent.sh")}`,
        `cat ${join(at.runtimesDir, "node-x", "VERSION")}`,
        `ls -A ${dataHome} | tr '\\n' ' '; echo`,
        `echo x > ${join(at.agentsDir, "x", "w")} || echo refused-agents-write`,
        `echo x > ${join(dataHome, "new")} || echo refused-home-write`,
      ].join("; ");
      const launch = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", script] }, ws);
      const r = spawnSync(launch.file, launch.args, { cwd: ws, encoding: "utf8" });
      await closeSandbox(plan);
      assert.equal(
        r.stdout,
        "agent-ran\nruntime-read\nagents runtimes \nrefused-agents-write\nrefused-home-write\n",
        r.stderr,
      );
    });
  },
);

test("a session root inside a hidden folder stays writable, the folder around it hidden", { skip }, async () => {
  await withTmpDir("sbx-home-", async (dir) => {
    const { at, plan } = await world(dir, (dataHome) => [join(dataHome, "threads", "ws-inside")]);
    const root = join(at.threadsDir, "ws-inside");
    writeFileSync(join(at.threadsDir, "other.jsonl"), "other thread");
    const script = `echo in > ${root}/made.txt && echo wrote-in; cat ${at.threadsDir}/other.jsonl || echo refused-other`;
    const launch = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", script] }, root);
    const r = spawnSync(launch.file, launch.args, { cwd: root, encoding: "utf8" });
    await closeSandbox(plan);
    assert.equal(r.stdout, "wrote-in\nrefused-other\n", r.stderr);
    assert.equal(existsSync(join(root, "made.txt")) && readFileSync(join(root, "made.txt"), "utf8"), "in\n");
  });
});
