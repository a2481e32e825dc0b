// `acp-threads exec --detach` (#35 item 1): the run goes to the thread host (started on demand), which owns it in
// the data home's exec registry: this CLI prints its id and returns, `ps`, `logs` and `kill` in other processes
// see and stop it (its whole process group), and the host records its end. `--detach` goes without `--background`
// and `--worktree` (the host takes runs in the client's own folders only), nor with `--worktree-ref` (the background
// supervisor's flag: the ref was ignored). A `--timeout` no timer can wait (past ~24.8 days) is refused by the CLI
// itself (a usage error, exit 2: every timer flag is bounded), before any host is started; the host's own refusal
// of such a timeout is the door's test (host-door-timers.test.ts, a client sending it directly).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { cli, hostEnv, hostPid, stopHost } from "../../../fixtures/host/host-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCli } from "../../../fixtures/cli/spawn-cli";

interface Listed {
  id: string;
  status: string;
  ownerPid: number;
  cwd: string;
  threadId?: string;
}

const ps = async (home: string): Promise<Listed[]> => JSON.parse((await cli(home, ["ps", "--format", "json"])).stdout);

test("exec --detach: the host owns the run; ps, logs and kill see it from other processes", () =>
  withTmpDir("acp-exec-detach-", async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    try {
      const script = "echo started; sleep 100 & echo kid $!; wait";
      const started = await runCli(["exec", "--detach", "--", "sh", "-c", script], {
        home,
        cwd: ws,
        env: { ACP_THREADS_HOST_IDLE_SECONDS: "2" },
      });
      assert.equal(started.code, 0, started.stderr);
      const id = started.stdout.trim();
      assert.match(id, /^[0-9a-f]{10}$/);
      assert.match(started.stderr, /the run is the thread host's/);
      const [run] = await ps(home);
      assert.equal(run.id, id);
      assert.equal(run.status, "running");
      assert.equal(run.cwd, ws);
      assert.equal(run.ownerPid, hostPid(home), "owned by the thread host");
      assert.ok(run.threadId, "recorded as an exec thread");
      const status = await cli(home, ["host", "status"]);
      assert.match(status.stdout, new RegExp(`^exec ${id}  running  sh -c .*\\(${ws}\\)$`, "m"));
      let logs = "";
      // `logs` in another process reads the host's log file: polled until the child's pid is there
      for (const deadline = Date.now() + 30_000; !/kid \d+/.test(logs) && Date.now() < deadline;)
        logs = (await cli(home, ["logs", id])).stdout;
      assert.match(logs, /started\r?\n/);
      const kid = Number(/kid (\d+)/.exec(logs)![1]);
      const killed = await cli(home, ["kill", id]);
      assert.equal(killed.code, 0, killed.stderr);
      await waitFor(() => !pidAlive(kid), "the run's child is gone", 15_000);
      const after = await ps(home);
      assert.equal(after[0]?.status, "killed");
    } finally {
      await stopHost(home);
    }
  }));

test("exec --detach goes without --background and --worktree", () =>
  withTmpDir("acp-exec-detach-", async (home) => {
    for (const flag of ["--background", "--worktree"]) {
      const r = await cli(home, ["exec", "--detach", flag, "--", "true"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--detach goes without --background and --worktree/);
    }
    assert.equal(hostPid(home), undefined, "no host was started");
  }));

test("exec --detach goes without --worktree-ref: refused as a usage error, not ignored", () =>
  withTmpDir("acp-exec-detach-", async (home) => {
    const ref = { path: join(home, "wt"), repo: home, base: "HEAD", createdAt: new Date().toISOString() };
    const r = await cli(home, ["exec", "--detach", `--worktree-ref=${JSON.stringify(ref)}`, "--", "true"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--detach goes without --worktree-ref/);
    assert.equal(hostPid(home), undefined, "no host was started");
  }));

test("exec --detach --timeout past the longest timer: a usage error, no host started, nothing runs", () =>
  withTmpDir("acp-exec-detach-", async (dir) => {
    const home = join(dir, "home");
    mkdirSync(home); // `ps` runs there
    try {
      const days30 = String(30 * 24 * 3600);
      const r = await runCli(["exec", "--detach", "--timeout", days30, "--", "sleep", "600"], {
        home,
        cwd: dir,
        env: hostEnv(),
      });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "", "no run id");
      assert.match(r.stderr, /--timeout must be at most 2147483\.647 \(about 24\.8 days, the longest a timer waits\)/);
      assert.equal(hostPid(home), undefined, "no host was started");
      assert.deepEqual(await ps(home), [], "no run was started");
    } finally {
      await stopHost(home);
    }
  }));
