// #35: a turn's start is an event (`turn_started`), so a client that does not follow the thread (a window's Sessions
// row, `acp-threads events`) sees an idle hosted thread go working when another client prompts it. Real processes: a
// host with the CLI's run path, the stdio fake agent, a run kept open between prompts. Before, the row read the
// host's status after each event and stayed "idle" until that turn's turn_ended.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostEvent, HostSessionInfo } from "../../../../src/core/host/protocol";
import { fakeRun, withCliHostClients } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a prompt to an idle kept-open thread from another client is announced turn_started, the host's status then working", () =>
  withCliHostClients("acp-host-turn-started-", async ({ dir, client }) => {
    const window = await client("a window that follows no thread");
    const heard: { event: HostEvent; state?: HostSessionInfo["state"] }[] = [];
    // as the window's row does: the host's status read on each event
    window.onPush((m) => {
      if (m.t !== "event") return;
      const entry: (typeof heard)[number] = { event: m.event };
      heard.push(entry);
      void window.request({ t: "status" }).then((r) => {
        if (r.t === "status") entry.state = r.status.sessions.find((s) => s.threadId === m.event.threadId)?.state;
      });
    });
    await window.request({ t: "events" });
    const started = await window.request({ t: "run", run: fakeRun(dir, { keepOpen: true, prompts: ["one"] }) });
    assert.equal(started.t, "started");
    const id = started.t === "started" ? started.threadId : "";
    const kinds = () => heard.filter((h) => h.event.threadId === id).map((h) => h.event.kind);
    await waitFor(() => kinds().includes("turn_ended"), "the first turn ended");
    await waitFor(() => heard.at(-1)?.state === "idle", "the thread idle, as read on its turn's end");

    const cli = await client("acp-threads run --thread (pid 1)");
    await cli.request({ t: "prompt", threadId: id, text: "sleep 60000" });
    const second = () => heard.filter((h) => h.event.threadId === id && h.event.kind === "turn_started")[1];
    await waitFor(() => second()?.state !== undefined, "the second turn's start heard, the status read");
    assert.equal(second()?.state, "working", "the host's status as read on the event");
    assert.deepEqual(kinds(), ["started", "turn_started", "turn_ended", "turn_started"]);
    await window.request({ t: "stop_thread", threadId: id });
    await waitFor(() => kinds().includes("ended"), "the run ended");
  }));
