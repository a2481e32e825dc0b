/**
 * A thread the window starts in the thread host (#35, `acpThreads.host.runSessions: host`) gets the OS sandbox the
 * window would have given it (src/vscode/host/host-run-spec.ts, no vscode module): the window's settings decide,
 * the run request carries them, the host prepares the sandbox. Hostile, real processes (the built CLI's host, the
 * hostile agent): with `acpThreads.sandbox.mode: workspace-write` the agent's write outside, its read of a secret
 * and its escape through a symlink all fail, while the window's other workspace folder stays writable as in the
 * window; the allowed hosts are the only way out; a worktree session is sandboxed to its worktree by the unattended
 * default. Before, the host ran such threads unsandboxed (everything succeeded). Linux with bubblewrap only.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../src/core/host/client";
import type { DetachedRun } from "../../../src/core/host/protocol";
import type { ThreadRead } from "../../../src/core/store/thread-store";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { detachedRun, type HostRunRequest } from "../../../src/vscode/host/host-run-spec";
import { hostRunConfig } from "../../fixtures/host/run-config";
import { CLI } from "../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../fixtures/fake-agents/tmp-dir";
import { hostEnv, stopHost } from "../../fixtures/host/host-cli";
import { egressServers, HOSTILE_AGENT, noBwrap, sandboxWorld } from "../../fixtures/sandbox-world";
import { waitFor } from "../../fixtures/spawner/wait";

const BOUND = { skip: noBwrap, timeout: 60_000 };

const config = hostRunConfig;

/** The hostile agent's request as the window makes it for `prompt` in `cwd`. */
const request = (cwd: string, prompt: string, more: Partial<HostRunRequest> = {}): HostRunRequest => ({
  agent: HOSTILE_AGENT,
  cwd,
  parts: [{ type: "text", text: prompt }],
  permission: "approve-all",
  stallMs: 0,
  ...more,
});

/** `fn` with a connection to a host of its own (data home `<dir>/data`), stopped after. */
async function withHost<T>(dir: string, fn: (conn: HostConnection, data: string) => Promise<T>): Promise<T> {
  const data = join(dir, "data");
  const conn = await connectHost({
    home: data,
    client: "test",
    // the window's folders, as its hello says them: a run's roots must be inside them (run-roots.ts)
    serves: { fs: false, roots: [join(dir, "ws"), join(dir, "other")] },
    start: { script: CLI, env: { ...process.env, ...hostEnv(), ACP_THREADS_HOME: data } },
  });
  assert.ok(conn);
  try {
    return await fn(conn, data);
  } finally {
    conn.close();
    await stopHost(data);
  }
}

/** `run` in a host of its own until its `turns` turns ended: the thread. */
const inHost = (dir: string, run: DetachedRun, turns = 1): Promise<ThreadRead> =>
  withHost(dir, async (conn, data) => {
    const r = await conn.request({ t: "run", run });
    assert.equal(r.t, "started");
    const read = () => new ThreadStore(data).read(r.t === "started" ? r.threadId : "");
    await waitFor(() => read().records.filter((x) => x.kind === "turn_end").length >= turns, "the turns ended", 30_000);
    return read();
  });

const said = (t: ThreadRead) => t.records.flatMap((x) => (x.kind === "agent_message" ? [x.text] : []));

test("sandbox.mode workspace-write: the thread the window starts in the host runs in the OS sandbox", BOUND, () =>
  withTmpDir("acp-host-sbx-", async (dir) => {
    const { home, ws, tmp } = sandboxWorld(dir);
    const other = join(dir, "other"); // the window's second workspace folder
    mkdirSync(other);
    const env = { ...process.env, HOME: home, TMPDIR: tmp };
    const run = await detachedRun(
      config({ sandbox: "workspace-write" }),
      request(ws, "escape", { roots: [other] }),
      env,
      () => {},
    );
    run.prompts.push(`shell echo in > ${other}/in.txt; echo out > ${home}/by-shell.txt`);
    const thread = await inHost(dir, run, 2);
    assert.equal(said(thread)[0], "escape: out=EROFS secret=ENOENT link=EROFS");
    assert.equal(existsSync(join(other, "in.txt")), true, "the window's other folder is writable, as in the window");
    for (const f of ["outside.txt", "via-link.txt", "by-shell.txt"])
      assert.equal(existsSync(join(home, f)), false, `${f} was not written`);
  }),
);

test(
  "sandbox.allowedHosts: the hosted agent reaches only the listed host, through the host's egress proxy",
  BOUND,
  () =>
    withTmpDir("acp-host-sbx-", (dir) =>
      egressServers(async (secretPort, webPort) => {
        const { home, ws, tmp } = sandboxWorld(dir);
        const allowed = `http://127.0.0.1:${webPort}/ok`;
        const denied = `http://localhost:${webPort}/no`;
        const run = await detachedRun(
          config({ sandbox: "workspace-write", sandboxAllowedHosts: [`127.0.0.1:${webPort}`] }),
          request(ws, `net ${secretPort} ${allowed} ${denied}`),
          { ...process.env, HOME: home, TMPDIR: tmp },
          () => {},
        );
        const answer = said(await inHost(dir, run)).join("");
        assert.match(answer, /^net: direct=(ECONNREFUSED|ENETUNREACH) /, answer);
        assert.match(answer, new RegExp(` ${allowed}=200 ${denied}=403$`), answer);
      }),
    ),
);

test(
  "a worktree session the window starts in the host: the host makes the worktree, sandboxed by the unattended default to it",
  BOUND,
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
      // the settings' default: sandbox.mode off, sandbox.unattended on
      const run = await detachedRun(
        config(),
        request(ws, `shell echo in > in-wt.txt; echo out > ${ws}/main.txt`, {
          roots: [join(dir, "other")],
          worktree: true,
        }),
        { ...process.env, HOME: home, TMPDIR: tmp },
        () => {},
      );
      const wt = (await inHost(dir, run)).metadata.worktree;
      assert.ok(wt, "the thread works in a worktree of its own");
      assert.notEqual(realpathSync(wt.path), realpathSync(ws));
      assert.equal(readFileSync(join(wt.path, "in-wt.txt"), "utf8"), "in\n", "its worktree is writable");
      assert.equal(existsSync(join(ws, "main.txt")), false, "the main checkout is not: the sandbox is the worktree's");
    }),
);

test(
  "a sandboxed thread on a machine that cannot sandbox: the host refuses it, nothing runs unsandboxed",
  { skip: process.platform === "linux" ? false : "the probe's PATH decides on Linux", timeout: 60_000 },
  () =>
    withTmpDir("acp-host-sbx-", async (dir) => {
      const { home, ws, tmp } = sandboxWorld(dir);
      const bin = join(dir, "bin"); // node alone on the agent's PATH: no bwrap to find
      mkdirSync(bin);
      symlinkSync(process.execPath, join(bin, "node"));
      const agent = { ...HOSTILE_AGENT, env: { PATH: bin } };
      const run = await detachedRun(
        config({ sandbox: "workspace-write" }),
        request(ws, "escape", { agent }),
        { ...process.env, HOME: home, TMPDIR: tmp },
        () => {},
      );
      assert.ok(run.sandbox, "asked: the window sends it without probing, as its own session prepares it");
      await withHost(dir, async (conn) => {
        await assert.rejects(conn.request({ t: "run", run }), /bubblewrap|bwrap|sandbox/i);
        const st = await conn.request({ t: "status" });
        assert.equal(st.t === "status" && st.status.sessions.length, 0, "no run");
      });
      assert.equal(existsSync(join(home, "outside.txt")), false, "the agent never ran");
    }),
);

test("the window's sandbox decision for the host: the setting, the composer's toggle, the worktree default", async () => {
  const base = request("/ws", "hi");
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
  const continued = await detachedRun(config(), { ...base, inWorktree: true }, process.env, () => {});
  if (!noBwrap) assert.ok(continued.sandbox, "a continued worktree thread: the same default, as in the window");
});
