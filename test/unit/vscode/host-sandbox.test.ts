/**
 * A thread the window starts in the thread host (#35, `acpThreads.host.runSessions: host`) gets the OS sandbox the
 * window would have given it (src/vscode/host/host-run-spec.ts, no vscode module): the window's settings decide,
 * the run request carries them, the host prepares the sandbox. Hostile, real processes (the built CLI's host, the
 * hostile agent): with `acpThreads.sandbox.mode: workspace-write` the agent's write outside, its read of a secret
 * and its escape through a symlink all fail, while the window's other workspace folder stays writable as in the
 * window; before, the host ran such a thread unsandboxed (everything succeeded). Linux with bubblewrap only.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../src/core/host/client";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { detachedRun, type HostRunConfig } from "../../../src/vscode/host/host-run-spec";
import { CLI } from "../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../fixtures/fake-agents/tmp-dir";
import { hostEnv, stopHost } from "../../fixtures/host/host-cli";
import { HOSTILE_AGENT, noBwrap, sandboxWorld } from "../../fixtures/sandbox-world";
import { waitFor } from "../../fixtures/spawner/wait";

const config = (s: Partial<HostRunConfig> = {}): HostRunConfig => ({
  sandbox: "off",
  sandboxDenyRead: [],
  sandboxAllowedHosts: [],
  sandboxUnattended: true,
  ...s,
});

test(
  "sandbox.mode workspace-write: the thread the window starts in the host runs in the OS sandbox",
  { skip: noBwrap, timeout: 60_000 },
  () =>
    withTmpDir("acp-host-sbx-", async (dir) => {
      const { home, ws, tmp } = sandboxWorld(dir);
      const other = join(dir, "other"); // the window's second workspace folder
      mkdirSync(other);
      const data = join(dir, "data");
      const env = { ...process.env, HOME: home, TMPDIR: tmp };
      const run = await detachedRun(
        config({ sandbox: "workspace-write" }),
        {
          agent: HOSTILE_AGENT,
          cwd: ws,
          parts: [{ type: "text", text: "escape" }],
          roots: [other],
          permission: "approve-all",
          stallMs: 0,
        },
        env,
        () => {},
      );
      run.prompts.push(`shell echo in > ${other}/in.txt; echo out > ${home}/by-shell.txt`);
      const conn = await connectHost({
        home: data,
        client: "test",
        start: { script: CLI, env: { ...process.env, ...hostEnv(), ACP_THREADS_HOME: data } },
      });
      assert.ok(conn);
      try {
        const r = await conn.request({ t: "run", run });
        assert.equal(r.t, "started");
        const threadId = r.t === "started" ? r.threadId : "";
        const records = () => new ThreadStore(data).read(threadId).records;
        await waitFor(() => records().filter((x) => x.kind === "turn_end").length >= 2, "both turns ended", 30_000);
        const said = records().flatMap((x) => (x.kind === "agent_message" ? [x.text] : []));
        assert.equal(said[0], "escape: out=EROFS secret=ENOENT link=EROFS");
        assert.equal(
          existsSync(join(other, "in.txt")),
          true,
          "the window's other folder is writable, as in the window",
        );
        for (const f of ["outside.txt", "via-link.txt", "by-shell.txt"])
          assert.equal(existsSync(join(home, f)), false, `${f} was not written`);
      } finally {
        conn.close();
        await stopHost(data);
      }
    }),
);

test(
  "a worktree session the window starts in the host: the host makes the worktree, sandboxed by the unattended default to it",
  { skip: noBwrap, timeout: 60_000 },
  () =>
    withTmpDir("acp-host-sbx-", async (dir) => {
      const { home, ws, tmp } = sandboxWorld(dir);
      rmSync(join(ws, "home-link"));
      writeFileSync(join(ws, "a.txt"), "a\n");
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: ws, encoding: "utf8" });
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("commit", "-q", "-m", "seed");
      const data = join(dir, "data");
      const env = { ...process.env, HOME: home, TMPDIR: tmp };
      // the settings' default: sandbox.mode off, sandbox.unattended on
      const run = await detachedRun(
        config(),
        {
          agent: HOSTILE_AGENT,
          cwd: ws,
          parts: [{ type: "text", text: `shell echo in > in-wt.txt; echo out > ${ws}/main.txt` }],
          roots: [join(dir, "other")],
          worktree: true,
          permission: "approve-all",
          stallMs: 0,
        },
        env,
        () => {},
      );
      const conn = await connectHost({
        home: data,
        client: "test",
        start: { script: CLI, env: { ...process.env, ...hostEnv(), ACP_THREADS_HOME: data } },
      });
      assert.ok(conn);
      try {
        const r = await conn.request({ t: "run", run });
        const threadId = r.t === "started" ? r.threadId : "";
        const store = new ThreadStore(data);
        await waitFor(() => store.read(threadId).records.some((x) => x.kind === "turn_end"), "the turn ended", 30_000);
        const wt = store.read(threadId).metadata.worktree;
        assert.ok(wt, "the thread works in a worktree of its own");
        assert.notEqual(realpathSync(wt.path), realpathSync(ws));
        assert.equal(readFileSync(join(wt.path, "in-wt.txt"), "utf8"), "in\n", "its worktree is writable");
        assert.equal(
          existsSync(join(ws, "main.txt")),
          false,
          "the main checkout is not: the sandbox is the worktree's",
        );
      } finally {
        conn.close();
        await stopHost(data);
      }
    }),
);

test("the window's sandbox decision for the host: the setting, the composer's toggle, the worktree default", async () => {
  const base = {
    agent: HOSTILE_AGENT,
    cwd: "/ws",
    parts: [{ type: "text" as const, text: "hi" }],
    permission: "approve-all" as const,
    stallMs: 0,
  };
  const settings = { sandboxDenyRead: ["~/secrets"], sandboxAllowedHosts: ["api.example.com"] };
  const on = await detachedRun(config({ sandbox: "workspace-write", ...settings }), base, process.env, () => {});
  assert.deepEqual(on.sandbox, { denyRead: ["~/secrets"], allowedHosts: ["api.example.com"] });
  const toggledOff = await detachedRun(
    config({ sandbox: "workspace-write" }),
    { ...base, sandbox: false },
    process.env,
    () => {},
  );
  assert.equal(toggledOff.sandbox, undefined, "the composer's toggle wins, as in the window");
  const toggledOn = await detachedRun(config(), { ...base, sandbox: true }, process.env, () => {});
  assert.ok(toggledOn.sandbox);
  assert.equal((await detachedRun(config(), base, process.env, () => {})).sandbox, undefined, "mode off");
  const worktree = await detachedRun(config(), { ...base, worktree: true, roots: ["/other"] }, process.env, () => {});
  assert.equal(worktree.worktree, true);
  assert.equal(worktree.roots, undefined, "a worktree session reaches its worktree only");
  if (!noBwrap)
    assert.ok(worktree.sandbox, "the unattended default sandboxes a worktree session where the machine can");
  const unattendedOff = await detachedRun(
    config({ sandboxUnattended: false }),
    { ...base, worktree: true },
    process.env,
    () => {},
  );
  assert.equal(unattendedOff.sandbox, undefined);
});
