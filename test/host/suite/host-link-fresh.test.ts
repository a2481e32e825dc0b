// Issue 35 in the real extension host: the window's list of the host's sessions (HostLink) is never older than the
// events it heard. A reader deciding on an event reads `link.session(id)` right then, with no request: at `started`
// (and once the `run` reply came) the run is listed working, at `needs_input` its question is pending, at
// `turn_ended` a kept-open run is idle, at a new `turn_started` working again, at `ended` gone. Before, the link read
// the host's status a moment after each event: each of these found the row from before (Apply called `check()`
// first, a Best of N candidate asked the host again before concluding; host tests flaked under load).
// A connection the host dropped is opened again at once (before: only once the socket or the threads folder changed).
import assert from "node:assert/strict";
import { join } from "node:path";
import type { HostEvent, HostSessionInfo } from "../../../src/core/host/protocol";
import { connectHost } from "../../../src/core/host/client";
import { api, repoRoot, waitFor, workspaceRoot } from "./helpers";
import { cli, FAKE } from "./host-cli";

describe("the window's host sessions agree with its events (#35)", () => {
  it("each event the link pushes finds the thread's row as the host had it: working, pending, idle, working, gone", async () => {
    const { hub } = await api();
    const link = hub.hosted.link;
    const heard: { event: HostEvent; row: HostSessionInfo | undefined }[] = [];
    const sub = link.onPush(
      (m) => m.t === "event" && heard.push({ event: m.event, row: link.session(m.event.threadId) }),
    );
    try {
      const conn = await link.connection(true);
      assert.ok(conn, "the window started (or reached) the host");
      const hold = link.hold(); // the link keeps the connection while the test runs the thread through it
      try {
        const reply = await conn.request({
          t: "run",
          run: {
            cwd: workspaceRoot(),
            prompts: ["ask execute"],
            agent: FAKE,
            permission: "ask",
            keepOpen: true,
            env: {},
            stallMs: 0,
            retry: "off",
          },
        });
        assert.equal(reply.t, "started");
        const id = reply.t === "started" ? reply.threadId : "";
        assert.equal(link.session(id)?.state, "working", "listed once the run's reply came, with no check()");
        const of = (kind: HostEvent["kind"]) => heard.filter((h) => h.event.threadId === id && h.event.kind === kind);

        const asked = await waitFor("the question heard", () => of("needs_input")[0]);
        assert.equal(of("started")[0]?.row?.state, "working", "the row at `started`");
        assert.ok(asked.event.kind === "needs_input");
        assert.equal(asked.row?.pending?.requestId, asked.event.question.requestId, "the row at `needs_input`");

        await conn.request({ t: "answer", threadId: id, option: "allow" });
        const ended = await waitFor("the turn's end heard", () => of("turn_ended")[0]);
        assert.equal(of("answered")[0]?.row?.pending, undefined, "the row at `answered`: no question left");
        assert.equal(ended.row?.state, "idle", "the row at `turn_ended`: the kept-open run waits for a prompt");

        await conn.request({ t: "prompt", threadId: id, text: "sleep 60000" });
        const second = await waitFor("the second turn's start heard", () => of("turn_started")[1]);
        assert.equal(second.row?.state, "working", "the row at the second `turn_started`");

        await conn.request({ t: "stop_thread", threadId: id });
        const gone = await waitFor("the run's end heard", () => of("ended")[0]);
        assert.equal(gone.row, undefined, "the row at `ended`: the host no longer holds it");
      } finally {
        hold.dispose();
      }
    } finally {
      sub.dispose();
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("a connection the host dropped is opened again at once, though no new host or thread tells of it", async () => {
    const { hub } = await api();
    const link = hub.hosted.link;
    // a terminal's client keeps the host (its runs' clients count; the window only looks on), and nothing changes in
    // the data home meanwhile: before, the window looked again only when the socket or the threads folder changed
    const terminal = await connectHost({
      home: hub.home,
      client: "a terminal",
      start: { script: join(repoRoot(), "dist/cli.js"), env: { ...process.env, ACP_THREADS_HOME: hub.home } },
    });
    try {
      assert.ok(terminal, "a host started");
      await waitFor("the window connected to the new host", () => link.synced);
      const pid = link.hostPid;
      const c = await link.connection();
      assert.ok(c);
      c.sock.destroy(); // as the host drops a client that fell behind
      await waitFor("the connection closed", () => c.closed);
      await waitFor("connected again", () => link.synced);
      assert.equal(link.hostPid, pid, "the same host");
      assert.notEqual(await link.connection(), c, "a new connection");
    } finally {
      terminal?.close();
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
});
