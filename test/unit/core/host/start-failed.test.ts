// A hosted run whose agent never starts (#35 item 7, step 3): its session never opens, so the host holds no thread
// and sends no `ended`; the `run` request's error reply is where the reason is. It carries the code `start_failed`
// with the words a window session's failed start shows, so an editor can show the thread as failed (before: a
// plain error, the same as a refusal). A run refused for what it asked (context outside its folders) is not a start
// failure. The editor's acpThreads.nodePath goes with the run (`nodePath`): an agent no Node fits starts with it,
// as a window session's does; without it the refusal carries the start error's details (`nodeRuntime`: which Node
// to install), as a window session's start error does. A real host; real agent processes.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import { HostRefusal } from "../../../../src/core/host/protocol-refusal";
import { fakeNodePackage } from "../../../fixtures/fake-agents/node-package";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { pushClient } from "../../../fixtures/host/push-client";
import { waitFor } from "../../../fixtures/spawner/wait";

/** The `run` request's outcome: the thread started, or its error (and its code, a typed one's). */
async function runOutcome(c: HostConnection, run: Parameters<typeof fakeRun>[1] & { cwd: string }) {
  return await c.request({ t: "run", run: fakeRun(run.cwd, run) }).then(
    (r) => ({ started: r.t === "started" ? r.threadId : undefined, code: undefined, message: "", details: undefined }),
    (err: Error) => ({
      started: undefined,
      code: err instanceof HostRefusal ? err.reason : undefined,
      message: err.message,
      details: err instanceof HostRefusal ? err.details : undefined,
    }),
  );
}

test("an agent that exits during initialize, or whose command is missing: `start_failed`, saying why", () =>
  withCliHost("acp-host-start-failed-", async ({ dir, home, host }) => {
    const conns: HostConnection[] = [];
    try {
      const w = await pushClient(home, "VS Code window (ws, pid 1)", conns);
      const exits = await runOutcome(w.c, { cwd: dir, agent: "/bin/true" });
      assert.equal(exits.code, "start_failed", exits.message);
      assert.match(exits.message, /exited during initialize/);
      const missing = await runOutcome(w.c, { cwd: dir, agent: join(dir, "no-such-agent") });
      assert.equal(missing.code, "start_failed", missing.message);
      assert.match(missing.message, /no-such-agent/);
      assert.equal(host.status().sessions.length, 0, "no thread is held");
      // the host still serves: a run that starts is not one
      const ok = await runOutcome(w.c, { cwd: dir });
      assert.ok(ok.started, ok.message);
      await waitFor(() => w.said("echo: hello") || host.status().sessions.length === 0, "the run's turn");
    } finally {
      for (const c of conns) c.close();
    }
  }));

test("a run refused for what it asks (context outside its folders) is no start failure", () =>
  withCliHost("acp-host-start-refused-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const w = await pushClient(home, "VS Code window (ws, pid 1)", conns);
      const ws = join(dir, "ws");
      mkdirSync(ws);
      const outside = { kind: "file" as const, label: "passwd", uri: "file:///etc/passwd", path: "/etc/passwd" };
      const refused = await runOutcome(w.c, { cwd: ws, context: [outside] });
      assert.equal(refused.started, undefined);
      assert.equal(refused.code, undefined, `a plain error: ${refused.message}`);
      assert.match(refused.message, /outside/);
    } finally {
      for (const c of conns) c.close();
    }
  }));

test("an agent no Node fits fails to start saying what to install; with the editor's nodePath it starts", () =>
  withCliHost("acp-host-start-node-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const w = await pushClient(home, "VS Code window (ws, pid 1)", conns);
      const pkg = fakeNodePackage(join(dir, "pkg"), { name: "future-agent", engines: ">=99" });
      // the agent's PATH holds only a node that does not fit (this one): the host's own does not either
      const env = { PATH: pkg.pathBin };
      const none = await runOutcome(w.c, { cwd: dir, agent: pkg.bin, env });
      assert.equal(none.code, "start_failed", none.message);
      assert.match(none.message, /future-agent 1\.0\.0 needs Node >=99 .*acp-threads runtime install 99/);
      // as data too, as a window session's start error has it: the editor offers "Install Node runtime" from it
      const node = none.details?.nodeRuntime as { major?: unknown; range?: unknown } | undefined;
      assert.deepEqual([node?.major, node?.range], [99, ">=99"], JSON.stringify(none.details));
      const given = await runOutcome(w.c, { cwd: dir, agent: pkg.bin, env, nodePath: process.execPath });
      assert.ok(given.started, given.message);
      await w.c.request({ t: "attach", threadId: given.started, from: 0 });
      await waitFor(() => w.said("echo: hello"), "the agent's answer, run by the Node named");
    } finally {
      for (const c of conns) c.close();
    }
  }));
