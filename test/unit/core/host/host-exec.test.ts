// Exec runs in the thread host (#35 item 1): a client starts an exec run (a real `/bin/sh -c` script in a real pty)
// over the host's socket; it is in the data home's exec registry (what `acp-threads exec list` reads), owned by
// the host; its output, typing and exit go as a hosted terminal's to the clients showing its folder's terminals, a
// client that comes mid-run (a reloaded window) gets its recent output; stop, the host's stop and the host's
// death (SIGKILL) end its whole process group. Hostile: a start outside the client's folders (a folder elsewhere, a
// link leading out, a relative path, a client that offers none) is refused and starts nothing; input from a client
// the run is not shown to never reaches it.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import type { HostExec, HostExecInfo } from "../../../../src/core/host/protocol-exec";
import type { TerminalExitStatus } from "../../../../src/core/host/protocol-serve";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { CLI } from "../../../fixtures/cli/spawn-cli";
import { listedExecRuns } from "../../../fixtures/host/exec-listed";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { follow, viewer, type Viewer } from "../../../fixtures/host/terminal-viewer";
import { hostPid, stopHost } from "../../../fixtures/host/host-cli";
import { noBwrap } from "../../../fixtures/sandbox-world";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { waitFor } from "../../../fixtures/spawner/wait";

/** An env value: the host holds it in memory only (no file of the data home holds it). */
const SECRET = "env-value-never-written-7f3a";

const sh = (cwd: string, script: string, more: Partial<HostExec> = {}): HostExec => ({
  command: "/bin/sh",
  args: ["-c", script],
  cwd,
  ...more,
});

async function startExec(conn: HostConnection, exec: HostExec): Promise<HostExecInfo> {
  const r = await conn.request({ t: "exec_start", exec });
  assert.equal(r.t, "exec_started");
  return r.t === "exec_started" ? r.exec : (undefined as never);
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (err: Error) => err.message,
  );

function withHost(fn: (o: { dir: string; home: string; ws: string; other: string }) => Promise<void>): Promise<void> {
  return withCliHost("acp-host-exec-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    const other = join(dir, "other");
    mkdirSync(ws, { recursive: true });
    mkdirSync(other, { recursive: true });
    await fn({ dir, home, ws, other });
  });
}

test("an exec run in the host: in the registry, its output and exit shown, typed into, listed by status", () =>
  withHost(async ({ home, ws }) => {
    const v = await viewer(home, [ws]);
    try {
      const env = { ACP_EXEC_TEST_SECRET: SECRET };
      const script = "echo ready; read line; echo got:$line; echo env-length:${#ACP_EXEC_TEST_SECRET}";
      const exec = await startExec(v.conn, sh(ws, script, { title: "the echo", env }));
      assert.equal(exec.title, "the echo");
      await waitFor(() => v.output.get(exec.runId)?.includes("ready") === true, "its output reaches the client");
      const [t] = v.terminals;
      assert.equal(t.term, exec.runId);
      assert.equal(t.exec?.runId, exec.runId);
      assert.equal(t.label, "the echo");
      assert.equal(t.cwd, ws);
      const run = listedExecRuns(home).find((r) => r.id === exec.runId);
      assert.equal(run?.status, "running", "the registry lists it running");
      assert.equal(run?.ownerPid, process.pid, "owned by the host");
      assert.ok(exec.threadId && run?.threadId === exec.threadId, "recorded as an exec thread");
      const status = await v.conn.request({ t: "status" });
      assert.deepEqual(status.t === "status" && status.status.execs?.map((e) => e.runId), [exec.runId]);
      await v.conn.request({ t: "terminal_input", term: exec.runId, data: "hi\r" });
      await waitFor(() => v.exits.has(exec.runId), "it exits after its line");
      assert.match(v.output.get(exec.runId)!, /got:hi/);
      assert.equal(v.exits.get(exec.runId), 0);
      await waitFor(
        () => listedExecRuns(home).find((r) => r.id === exec.runId)?.status === "exited",
        "recorded as exited",
      );
      const after = await v.conn.request({ t: "status" });
      assert.equal(after.t === "status" && after.status.execs, undefined, "no longer listed as running");
      assert.match(v.output.get(exec.runId)!, new RegExp(`env-length:${SECRET.length}`), "the run had its env");
      for (const f of readdirSync(home, { recursive: true, encoding: "utf8" })) {
        const path = join(home, f);
        if (statSync(path).isFile()) assert.ok(!readFileSync(path).includes(SECRET), `${f} holds no env value`);
      }
    } finally {
      v.conn.close();
    }
  }));

test("a client that comes mid-run (a reloaded window) gets the run's recent output, then its live output", () =>
  withHost(async ({ home, ws }) => {
    const first = await viewer(home, [ws]);
    const exec = await startExec(first.conn, sh(ws, "echo before; read line; echo after:$line"));
    await waitFor(() => first.output.get(exec.runId)?.includes("before") === true, "the first output");
    first.conn.close(); // the window reloads: its connection goes, the run goes on
    const again = await viewer(home, [ws]);
    try {
      await waitFor(() => again.terminals.some((t) => t.term === exec.runId), "the reloaded window is shown the run");
      const shown = again.terminals.find((t) => t.term === exec.runId)!;
      assert.match(shown.recent ?? "", /before/, "with its output so far");
      assert.equal(shown.exec?.runId, exec.runId);
      await again.conn.request({ t: "terminal_input", term: exec.runId, data: "x\r" });
      await waitFor(() => again.exits.has(exec.runId), "it ends");
      assert.match(again.output.get(exec.runId)!, /before[\s\S]*after:x/);
    } finally {
      again.conn.close();
    }
  }));

/** A script that starts a child in its own group's background and prints its pid, then waits. */
const WITH_CHILD = "sleep 600 & echo child:$!; wait";
const childPid = (v: Viewer, runId: string) => Number(/child:(\d+)/.exec(v.output.get(runId) ?? "")?.[1] ?? 0);

test("exec_stop ends the run's whole process group, from any client of the user", () =>
  withHost(async ({ home, ws }) => {
    const v = await viewer(home, [ws]);
    const cli = await viewer(home, [], null); // a shell's client: it shows nothing, and may still stop the run
    try {
      const exec = await startExec(v.conn, sh(ws, WITH_CHILD));
      await waitFor(() => childPid(v, exec.runId) > 0, "the child's pid");
      const child = childPid(v, exec.runId);
      assert.ok(pidAlive(child));
      await cli.conn.request({ t: "exec_stop", runId: exec.runId });
      await waitFor(() => v.exits.has(exec.runId), "the run ended");
      await waitFor(() => !pidAlive(child), "its child ended with it", 10_000);
      assert.equal(listedExecRuns(home).find((r) => r.id === exec.runId)?.status, "killed");
      assert.match(await failure(cli.conn.request({ t: "exec_stop", runId: exec.runId })), /no exec run/);
    } finally {
      v.conn.close();
      cli.conn.close();
    }
  }));

test("a run's end reaches the clients with its registry status: a timeout says `timeout`, not a signal's kill", () =>
  withHost(async ({ home, ws }) => {
    const v = await viewer(home, [ws]);
    const ends = new Map<string, TerminalExitStatus>();
    v.conn.onPush((m) => m.t === "terminal_output" && m.exit && ends.set(m.term, m.exit));
    try {
      const timed = await startExec(v.conn, sh(ws, "echo up; sleep 600", { timeoutMs: 200 }));
      const plain = await startExec(v.conn, sh(ws, "exit 3"));
      await waitFor(() => ends.has(timed.runId) && ends.has(plain.runId), "both end");
      assert.equal(ends.get(timed.runId)?.status, "timeout");
      assert.equal(listedExecRuns(home).find((r) => r.id === timed.runId)?.status, "timeout", "as the registry says");
      assert.deepEqual(ends.get(plain.runId), { exitCode: 3, signal: null, status: "exited" });
    } finally {
      v.conn.close();
    }
  }));

test("the host's stop ends its exec runs; a stop without --force is refused while one runs", () =>
  withCliHost("acp-host-exec-", async ({ dir, home, host }) => {
    const v = await viewer(home, [dir]);
    try {
      const exec = await startExec(v.conn, sh(dir, WITH_CHILD));
      await waitFor(() => childPid(v, exec.runId) > 0, "the child's pid");
      const child = childPid(v, exec.runId);
      assert.match(await failure(v.conn.request({ t: "stop", force: false })), /1 exec run\(s\) still run/);
      await host.stop();
      await waitFor(() => !pidAlive(child), "the run's child is gone with the host", 10_000);
      assert.equal(listedExecRuns(home).find((r) => r.id === exec.runId)?.status, "killed");
    } finally {
      v.conn.close();
    }
  }));

test("HOSTILE: the host killed with SIGKILL leaves no exec run behind (its process group is stopped)", () =>
  withTmpDir("acp-host-exec-kill-", async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    const env = { ...process.env, ACP_THREADS_HOME: home, ACP_THREADS_HOST_IDLE_SECONDS: "3600" };
    const conn = await connectHost({
      home,
      client: "an editor",
      serves: { fs: false, terminals: true, roots: [ws] },
      start: { script: CLI, env },
    });
    assert.ok(conn);
    const v = follow(conn);
    try {
      // a program that ignores the hangup its pty gives when the host's end of it closes (as `nohup` would)
      const exec = await startExec(conn, sh(ws, `trap '' HUP; ${WITH_CHILD}`));
      await waitFor(() => childPid(v, exec.runId) > 0, "the child's pid");
      const child = childPid(v, exec.runId);
      const run = listedExecRuns(home).find((r) => r.id === exec.runId)!;
      const pid = hostPid(home)!;
      assert.equal(run.ownerPid, pid);
      process.kill(pid, "SIGKILL");
      await waitFor(() => !pidAlive(pid), "the host is gone");
      await waitFor(() => !pidAlive(child) && !pidAlive(run.pid!), "the run and its child are gone", 15_000);
    } finally {
      conn.close();
      await stopHost(home);
    }
  }));

test("HOSTILE: a start outside the client's folders is refused and starts nothing", () =>
  withHost(async ({ home, ws, other }) => {
    symlinkSync(other, join(ws, "out"));
    const v = await viewer(home, [ws]);
    const none = await viewer(home, [], null);
    try {
      const refusals = [
        await failure(v.conn.request({ t: "exec_start", exec: sh(other, "touch pwned") })),
        await failure(v.conn.request({ t: "exec_start", exec: sh(join(ws, "out"), "touch pwned") })),
        await failure(v.conn.request({ t: "exec_start", exec: sh(join(ws, "..", "other"), "touch pwned") })),
        await failure(v.conn.request({ t: "exec_start", exec: sh(ws, "touch pwned", { roots: [other] }) })),
        await failure(v.conn.request({ t: "exec_start", exec: sh("ws", "touch pwned") })),
        await failure(none.conn.request({ t: "exec_start", exec: sh(ws, "touch pwned") })),
      ];
      for (const r of refusals.slice(0, 4)) assert.match(r, /not all inside this client's folders/);
      assert.match(refusals[4], /cwd must be an absolute path/);
      assert.match(refusals[5], /none said/);
      assert.deepEqual(listedExecRuns(home), [], "no run was started");
    } finally {
      v.conn.close();
      none.conn.close();
    }
  }));

test("HOSTILE: a client the run is not shown to cannot type into it", () =>
  withHost(async ({ home, ws, other }) => {
    const v = await viewer(home, [ws]);
    const elsewhere = await viewer(home, [other]);
    const none = await viewer(home, [], null);
    try {
      const exec = await startExec(v.conn, sh(ws, "echo ready; read line; echo got:$line"));
      await waitFor(() => v.output.get(exec.runId)?.includes("ready") === true, "it runs");
      for (const c of [elsewhere, none])
        assert.match(
          await failure(c.conn.request({ t: "terminal_input", term: exec.runId, data: "evil\r" })),
          /not shown to this client/,
        );
      await v.conn.request({ t: "terminal_input", term: exec.runId, data: "ok\r" });
      await waitFor(() => v.exits.has(exec.runId), "it ends");
      assert.doesNotMatch(v.output.get(exec.runId)!, /evil/);
      assert.match(v.output.get(exec.runId)!, /got:ok/);
    } finally {
      for (const c of [v, elsewhere, none]) c.conn.close();
    }
  }));

test("a sandboxed exec run in the host is OS-enforced: it cannot write outside its folder", { skip: noBwrap }, () =>
  withHost(async ({ dir, home, ws, other }) => {
    const v = await viewer(home, [ws]);
    const tmp = join(dir, "tmp"); // the sandbox leaves the temp folder writable: its own, not the one holding `other`
    mkdirSync(tmp);
    try {
      const script = `touch ${join(ws, "in.txt")}; touch ${join(other, "evil.txt")} || echo refused`;
      const exec = await startExec(v.conn, sh(ws, script, { sandbox: {}, env: { TMPDIR: tmp } }));
      assert.equal(exec.sandboxed, true);
      await waitFor(() => v.exits.has(exec.runId), "it ends");
      assert.match(v.output.get(exec.runId)!, /refused/);
      assert.equal(readFileSync(join(ws, "in.txt"), "utf8"), "");
      assert.throws(() => readFileSync(join(other, "evil.txt")));
    } finally {
      v.conn.close();
    }
  }),
);
