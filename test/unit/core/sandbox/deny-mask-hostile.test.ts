/**
 * Hostile (real bwrap): a denied FILE stays hidden from a running sandbox while it is replaced outside by tmp →
 * rename (vim, write-file-atomic, an agent outside). Linux detaches a mount whose file is renamed over in another
 * mount namespace, so a mount over the file itself (`--ro-bind /dev/null FILE`) falls off and the new file shows.
 * Here a sandboxed process polls a home-level secret (`~/.netrc`, a fake HOME) and a project `.env` listed in
 * `denyRead` (inside a writable root) while the test replaces each outside, over and over; it must never read a byte
 * of either. Also: the folder that hides `~/.netrc` shows the home's other entries, and a home-level file bound back
 * and replaced outside reads as its old version (stale), never the new one and never an error at the start.
 */
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, type SandboxPlan } from "../../../../src/core/sandbox/plan";
import { spawnProcess } from "../../../../src/core/exec/spawn-process";

const skip = noBwrap;
const ROUNDS = 40;

async function world(dir: string) {
  const { home, ws, tmp } = sandboxWorld(dir);
  writeFileSync(join(home, ".netrc"), "machine x login netrc-secret-0");
  writeFileSync(join(home, ".gitconfig"), "gitconfig-0");
  mkdirSync(join(home, "notes"));
  writeFileSync(join(home, "notes", "a.txt"), "note-a");
  symlinkSync("notes/a.txt", join(home, "a-link"));
  writeFileSync(join(ws, ".env"), "TOKEN=env-secret-0");
  const settings = { denyRead: [join(ws, ".env")] };
  const policy = buildSandboxPolicy({ roots: [ws], agentId: "x", home, env: {}, tmpDir: tmp, settings });
  return { home, ws, plan: await prepareSandbox(policy) };
}

/**
 * A sandboxed shell that reads `file` as fast as it can until `stop` exists (bounded), printing what it read, while
 * this process replaces `file` outside ROUNDS times: what the sandbox read, and bwrap's stderr.
 */
async function pollWhileReplaced(plan: SandboxPlan, ws: string, file: string, stop: string, secret: string) {
  const script =
    `echo ready; i=0; while [ ! -f ${stop} ] && [ $i -lt 200000 ]; do cat ${file} 2>/dev/null; i=$((i+1)); done; ` +
    `cat ${file} 2>&1; echo done`;
  // started as a sandboxed run is (spawn-process.ts), so the plan's mask guard stops it as it would a real one
  const proc = spawnProcess({ command: "/bin/sh", args: ["-c", script], cwd: ws, env: {}, pty: false, sandbox: plan });
  let out = "";
  let err = "";
  proc.onData((d, stream) => (stream === "stdout" ? (out += String(d)) : (err += String(d))));
  let ended = false;
  const closed = new Promise((resolve) => proc.onExit(resolve)).then(() => (ended = true));
  while (!out.includes("ready") && !ended) await new Promise((r) => setTimeout(r, 20));
  for (let i = 1; i <= ROUNDS && !ended; i++) {
    replaceByRename(file, `${secret}-${i}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  writeFileSync(stop, "");
  await closed;
  return { out, err };
}

test("hostile: ~/.netrc replaced outside by tmp → rename never shows inside a running sandbox", { skip }, async () => {
  await withTmpDir("sbx-mask-", async (dir) => {
    const { home, ws, plan } = await world(dir);
    try {
      const { out, err } = await pollWhileReplaced(plan, ws, join(home, ".netrc"), join(dir, "stop"), "netrc-secret");
      assert.match(out, /ready\n/, err);
      assert.match(out, /done\n$/, err);
      assert.doesNotMatch(out, /netrc-secret/, "the sandbox read the replaced ~/.netrc");
    } finally {
      await closeSandbox(plan);
    }
  });
});

// Not fixed (see mask-guard.ts): no mount can pin a name in a folder the agent writes. The guard stops the run right
// after the replacement (mask-guard.test.ts), but a reader in that instant still reads the new file.
const ENV_TODO = "a root's denied file replaced outside shows for an instant before the mask guard stops the run";

test(
  "hostile: a denied .env inside a writable root replaced outside never shows inside",
  { skip, todo: ENV_TODO },
  async () => {
    await withTmpDir("sbx-mask-", async (dir) => {
      const { ws, plan } = await world(dir);
      try {
        const { out, err } = await pollWhileReplaced(plan, ws, join(ws, ".env"), join(dir, "stop"), "env-secret");
        assert.match(out, /ready\n/, err);
        assert.doesNotMatch(out, /env-secret/, "the sandbox read the replaced .env");
      } finally {
        await closeSandbox(plan);
      }
    });
  },
);

test(
  "the folder around a hidden file shows its other entries; one replaced outside reads as before",
  { skip },
  async () => {
    await withTmpDir("sbx-mask-", async (dir) => {
      const { home, ws, plan } = await world(dir);
      try {
        const stop = join(dir, "stop");
        const script =
          `ls -A ${home} | tr '\\n' ' '; echo; cat ${home}/notes/a.txt; echo; cat ${home}/a-link; echo; ` +
          `echo x > ${home}/new.txt || echo refused-home-write; ` +
          `while [ ! -f ${stop} ]; do sleep 0.02; done; cat ${home}/.gitconfig; echo; cat ${home}/notes/b.txt`;
        const sh = sandboxedShell(plan, ws, script);
        await sh.until("refused-home-write");
        replaceByRename(join(home, ".gitconfig"), "gitconfig-1");
        writeFileSync(join(home, "notes", "b.txt"), "note-b"); // inside a bound-back folder: live
        writeFileSync(stop, "");
        await sh.closed;
        const lines = sh.seen.out.split("\n");
        assert.deepEqual(
          lines[0]!.trim().split(" ").sort(),
          [".cache", ".gitconfig", ".npm", ".ssh", "a-link", "notes"],
          `the home's entries but the denied ones: ${sh.seen.err}`,
        );
        assert.deepEqual(lines.slice(1), ["note-a", "note-a", "refused-home-write", "gitconfig-0", "note-b"]);
      } finally {
        await closeSandbox(plan);
      }
    });
  },
);

// bwrap binds the file, then looks its mount up by the file's path to make it read-write; a rename outside in
// between leaves it "(deleted)" and the start fails. Measured: 9 of 100 failed with the home shown as is, 2-3 with
// the home hidden (no more failures of the mount point itself). Now the launch tries again (setup-retry.ts): 0 of
// 100 at ordinary load, but not always under heavy load (setup-retry.test.ts has the figures).
const STATE_TODO =
  "bwrap fails a set-up when a rename lands between its bind of a state file and the bind's remount: the launch " +
  "tries again (setup-retry.ts), a bounded number of times, and under heavy load every attempt can lose";

test(
  "a sandbox starts while a writable home-level state file is rewritten over and over",
  { skip, todo: STATE_TODO },
  async () => {
    await withTmpDir("sbx-mask-", async (dir) => {
      const { home, ws } = sandboxWorld(dir);
      writeFileSync(join(home, ".netrc"), "machine x");
      const state = join(home, ".claude.json");
      writeFileSync(state, "{}");
      const policy = buildSandboxPolicy({
        roots: [ws],
        agentId: "claude-acp",
        home,
        env: {},
        tmpDir: join(dir, "tmp"),
      });
      const plan = await prepareSandbox(policy);
      try {
        const failures = startsWhileRewritten(plan, ws, state, `cat ${state} >/dev/null`, 100);
        assert.equal(
          failures.length,
          0,
          `${failures.length} of 100 failed, first: ${failures.slice(0, 2).join(" | ")}`,
        );
      } finally {
        await closeSandbox(plan);
      }
    });
  },
);
