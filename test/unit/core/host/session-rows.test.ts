// #35: the host pushes each session's status row (`session`) to its event listeners before what it announces of
// that thread, on the same ordered socket. A listener that keeps the rows as the window's link does (the status read
// once subscribed, then each pushed row) finds them in agreement with every event at the moment it hears it: no
// status request, no wait. Before, the window read the status a moment after each event: at `turn_ended` its row
// still said working (a Best of N candidate was summed up early, Apply refused, host tests flaked under load).
// Real processes: a host with the CLI's run path, the stdio fake agent asking permission, a run kept open.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import type { HostEvent, HostSessionInfo } from "../../../../src/core/host/protocol";
import { fakeRun, withCliHostClients } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

/** Keeps the host's rows as the window's link does; `heard`: each event with its thread's row as kept then. */
async function rowKeeper(conn: HostConnection) {
  let rows: HostSessionInfo[] = [];
  const heard: { event: HostEvent; row: HostSessionInfo | undefined }[] = [];
  conn.onPush((m) => {
    if (m.t === "session") {
      const others = rows.filter((r) => r.threadId !== m.session.threadId);
      rows = m.session.state === "ended" ? others : [...others, m.session];
    } else if (m.t === "event") heard.push({ event: m.event, row: rows.find((r) => r.threadId === m.event.threadId) });
  });
  await conn.request({ t: "events" });
  const r = await conn.request({ t: "status" });
  if (r.t === "status") rows = r.status.sessions.filter((s) => s.state !== "ended");
  return { heard, rows: () => rows };
}

test("each event finds the listener's pushed row in agreement: started working, a question pending then answered, a turn's end idle, a new turn working, the end gone", () =>
  withCliHostClients("acp-host-session-rows-", async ({ dir, client }) => {
    const window = await client("a window that follows no thread");
    const kept = await rowKeeper(window);
    const cli = await client("acp-threads run --thread (pid 1)");
    const started = await cli.request({
      t: "run",
      run: fakeRun(dir, { keepOpen: true, prompts: ["ask execute"], permission: "ask" }),
    });
    assert.equal(started.t, "started");
    const id = started.t === "started" ? started.threadId : "";
    const of = (kind: HostEvent["kind"]) => kept.heard.filter((h) => h.event.threadId === id && h.event.kind === kind);

    await waitFor(() => of("needs_input").length === 1, "the question heard");
    assert.equal(of("started")[0]?.row?.state, "working", "the row at `started`");
    assert.equal(of("turn_started")[0]?.row?.state, "working", "the row at `turn_started`");
    const asked = of("needs_input")[0]!;
    assert.ok(asked.event.kind === "needs_input");
    assert.equal(asked.row?.pending?.requestId, asked.event.question.requestId, "the row at `needs_input`");

    await cli.request({ t: "attach", threadId: id, from: 0 });
    await waitFor(() => kept.rows().find((r) => r.threadId === id)?.clients === 1, "the attach counted in the row");
    await cli.request({ t: "answer", threadId: id, option: "allow" });
    await waitFor(() => of("turn_ended").length === 1, "the turn's end heard");
    assert.equal(of("answered")[0]?.row?.pending, undefined, "the row at `answered`: no question");
    assert.equal(of("turn_ended")[0]?.row?.state, "idle", "the row at `turn_ended`: the kept-open run waits");

    await cli.request({ t: "prompt", threadId: id, text: "sleep 60000" });
    await waitFor(() => of("turn_started").length === 2, "the second turn's start heard");
    assert.equal(of("turn_started")[1]?.row?.state, "working", "the row at the second `turn_started`");

    await cli.request({ t: "stop_thread", threadId: id });
    await waitFor(() => of("ended").length === 1, "the run's end heard");
    assert.equal(of("ended")[0]?.row, undefined, "the row at `ended`: no longer held");
    const status = await window.request({ t: "status" });
    assert.ok(status.t === "status");
    assert.deepEqual(kept.rows(), status.status.sessions, "the rows kept are the host's status");
  }));
