// A hosted run kept open between prompts (#35, host parity §0; the editor's hosted threads: DetachedRun.keepOpen),
// real processes: a host with the CLI's run path, the fake stdio agent. Before, a run ended at an empty queue: every
// prompt started a new agent process and went through session/load. Now the run waits idle with its agent for the
// next prompt, and ends on `host stop THREAD` (stop_thread), when its agent exits, or after the host's idle time
// with no client attached to it; the host's own idle exit stops the idle runs it holds. A run that does not ask
// for it (`run --detach`) still ends after its queue.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as hostMain } from "../../../../src/cli/commands/host";
import type { HostConnection } from "../../../../src/core/host/client";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { eventsClient, untilState } from "../../../fixtures/host/events-client";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../in-process";

const client = eventsClient;
const until = untilState;

const close = (conn: HostConnection) => conn.close();

test("two prompts to a kept-open run reach one agent process with one session; host stop THREAD ends it", () =>
  withCliHost("acp-host-open-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const pidFile = join(dir, "agent.pid");
    const log = join(dir, "protocol.ndjson");
    const c = await client(home);
    try {
      const id = await c.start(
        fakeRun(ws, { keepOpen: true, env: { FAKE_AGENT_PIDFILE: pidFile }, protocolLog: log, prompts: ["one"] }),
      );
      await waitFor(() => c.of(id, "turn_ended").length === 1, "the first turn ended");
      await until(c, id, "idle");
      const pid = Number(readFileSync(pidFile, "utf8"));
      assert.equal(c.of(id, "ended").length, 0, "the run waits for the next prompt");

      await c.conn.request({ t: "prompt", threadId: id, text: "two" });
      await waitFor(() => c.of(id, "turn_ended").length === 2, "the second turn ended");
      await until(c, id, "idle");
      assert.equal(Number(readFileSync(pidFile, "utf8")), pid, "the same agent process");
      assert.ok(pidAlive(pid), "the agent still runs between prompts");
      const answers = new ThreadStore(home)
        .read(id)
        .records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []));
      assert.deepEqual(answers, ["echo: one", "echo: two"]);

      const stopped = await runCommand(hostMain, ["stop", id], { home });
      assert.equal(stopped.code, 0, stopped.err);
      await waitFor(() => c.of(id, "ended").length === 1, "the ended event");
      assert.deepEqual(
        c.events.filter((e) => e.threadId === id && (e.kind === "started" || e.kind === "ended")).map((e) => e.kind),
        ["started", "ended"],
        "started and ended once for the run, not around each prompt",
      );
      assert.equal((c.of(id, "ended")[0] as { exitCode: number }).exitCode, 0);
      await waitFor(() => !pidAlive(pid), "the stopped run's agent gone");
      // the log starts once the session is open: the second prompt went to it, with no session opened again
      const traffic = readFileSync(log, "utf8");
      assert.deepEqual(traffic.match(/"method":"session\/(new|load|resume)"/g), null, "no session opened again");
      assert.deepEqual(traffic.match(/"method":"session\/prompt","params":\{"sessionId":"[^"]+"/g)?.length, 2);
      assert.equal(new Set(traffic.match(/"sessionId":"[^"]+"/g)).size, 1, "one agent session");
      assert.equal(await c.session(id), undefined, "the host let the thread go");
      const again = await runCommand(hostMain, ["stop", id], { home });
      assert.equal(again.code, 1, "a thread the host does not hold");
      assert.match(again.err, /does not hold/);
    } finally {
      close(c.conn);
    }
  }));

test("stop_thread during a turn cancels it and ends the run; run --detach (not kept open) ends after its queue", () =>
  withCliHost("acp-host-open-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const c = await client(home);
    try {
      const id = await c.start(fakeRun(ws, { keepOpen: true, prompts: ["sleep 60000"] }));
      await waitFor(
        () => new ThreadStore(home).read(id).records.some((r) => r.kind === "agent_message"),
        "the agent sleeping",
      );
      await c.conn.request({ t: "stop_thread", threadId: id });
      await waitFor(() => c.of(id, "ended").length === 1, "the run ended");
      assert.deepEqual(
        c.of(id, "turn_ended").map((e) => (e as { stopReason: string | null }).stopReason),
        ["cancelled"],
      );
      const once = await c.start(fakeRun(ws, { prompts: ["one"] }));
      await waitFor(() => c.of(once, "ended").length === 1, "the one-shot run ended by itself");
    } finally {
      close(c.conn);
    }
  }));

test("an idle run with no client attached ends after the host's idle time; one a client follows stays", () =>
  withCliHost(
    "acp-host-open-",
    async ({ dir, home }) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      const c = await client(home); // a client that counts: the host itself stays
      try {
        // the followed run's first turn outlasts the attach below: it is never idle unattended
        const followed = await c.start(fakeRun(ws, { keepOpen: true, prompts: ["sleep 3000"] }));
        await c.conn.request({ t: "attach", threadId: followed, from: 0 });
        const alone = await c.start(fakeRun(ws, { keepOpen: true }));
        await waitFor(() => c.of(alone, "turn_ended").length === 1, "the unattended run's turn ended");
        await waitFor(() => c.of(alone, "ended").length === 1, "the unattended idle run ended");
        assert.equal((c.of(alone, "ended")[0] as { exitCode: number }).exitCode, 0);
        assert.notEqual((await c.session(followed))?.state ?? "gone", "gone", "the followed run is still held");
        await waitFor(() => c.of(followed, "turn_ended").length === 1, "the followed run's turn ended");
        await until(c, followed, "idle");
        assert.equal(c.of(followed, "ended").length, 0, "idle, with a client attached: held");
        await c.conn.request({ t: "detach", threadId: followed });
        await waitFor(() => c.of(followed, "ended").length === 1, "the followed run ended once let go");
      } finally {
        close(c.conn);
      }
    },
    { idleMs: 1000 },
  ));

test("a host holding only idle runs and no client leaves after its idle time, its runs' agents stopped", () =>
  withCliHost(
    "acp-host-open-",
    async ({ dir, home, host }) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      const pidFile = join(dir, "agent.pid");
      const c = await client(home);
      const id = await c.start(fakeRun(ws, { keepOpen: true, env: { FAKE_AGENT_PIDFILE: pidFile } }));
      await waitFor(() => c.of(id, "turn_ended").length === 1, "the turn ended");
      await until(c, id, "idle");
      const pid = Number(readFileSync(pidFile, "utf8"));
      close(c.conn);
      await host.closed;
      await waitFor(() => !pidAlive(pid), "the idle run's agent gone with the host");
      const records = new ThreadStore(home).read(id).records;
      assert.equal(records.filter((r) => r.kind === "turn_end").length, 1, "its one turn, whole");
    },
    { idleMs: 300 },
  ));

test("host stop without --force stops a host whose runs all wait idle, with them (exit 0); a working run refuses it", () =>
  withCliHost("acp-host-open-", async ({ dir, home, host }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const c = await client(home);
    try {
      const id = await c.start(fakeRun(ws, { keepOpen: true, prompts: ["sleep 60000"] }));
      await until(c, id, "working");
      const refused = await runCommand(hostMain, ["stop"], { home });
      assert.equal(refused.code, 1, "a turn runs");
      assert.match(refused.err, /1 session\(s\) still run/);
      await c.conn.request({ t: "cancel", threadId: id });
      await until(c, id, "idle");
      const stopped = await runCommand(hostMain, ["stop"], { home });
      assert.equal(stopped.code, 0, stopped.err);
      await host.closed;
      // the host waits for its runs to end before it closes its connections: the event came first
      assert.deepEqual(
        c.of(id, "ended").map((e) => (e as { exitCode: number }).exitCode),
        [0],
        "stopped, not interrupted",
      );
      const records = new ThreadStore(home).read(id).records;
      assert.equal(records.filter((r) => r.kind === "turn_end").length, 1, "its cancelled turn, whole");
    } finally {
      close(c.conn);
    }
  }));
