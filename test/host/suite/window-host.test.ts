// #35 item 7 step 3 in the real extension host: the window's own in-process thread host (window-host.ts), reached
// through the hub's objects as the other host suites reach `hub.hosted`. A thread started there with the run spec
// host-run.ts sends the socket host shows its row and its panel follows it; a permission is answered in the panel
// (a terminal's `acp-threads answer` cannot reach it: that host has no socket); with the user's socket host also
// running a `run --detach` thread both rows show and each thread's prompt goes to its own host; stopping the
// window's host (what the window's shutdown does) interrupts a running turn and the thread file says so.
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { configuredAgents } from "../../../src/vscode/agents";
import { detachedRun } from "../../../src/vscode/host/host-run-spec";
import { api, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach } from "./host-cli";

type Hub = Awaited<ReturnType<typeof api>>["hub"];

/**
 * Starts a new thread of the fake agent with the spec host-run.ts sends, in the window's own host (else, `socket`,
 * in the user's socket host, started if none runs, as a window in `host` mode does): its id.
 */
async function startIn(
  hub: Hub,
  prompt: string,
  permission: "ask" | "approve-reads" = "approve-reads",
  socket = false,
) {
  const agent = (await configuredAgents(hub.config, hub.registry)).find((a) => a.spec.id === "fake")?.spec;
  assert.ok(agent, "the fake agent configured");
  const run = await detachedRun(
    hub.config,
    { agent, cwd: workspaceRoot(), parts: [{ type: "text", text: prompt }], permission, stallMs: 0 },
    process.env,
    () => undefined,
  );
  const link = socket ? hub.hosted.link : hub.hosted.own;
  assert.ok(link, "the window has its own host's link");
  const conn = await link.connection(true);
  assert.ok(conn, "the window's host answers");
  const reply = await conn.request({ t: "run", run });
  assert.equal(reply.t, "started");
  return (reply as { threadId: string }).threadId;
}

const records = (hub: Hub, id: string) => hub.threads.read(id).records;

describe("the window's own in-process thread host (#35 item 7)", () => {
  before(useFakeAgent);
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("runs a thread: its row, its panel following it, a permission answered in the panel and not by a terminal", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), "window-host.txt");
    rmSync(out, { force: true });
    const id = await startIn(hub, `write ${out} from the window host`, "ask");
    try {
      await waitFor("its row", () => hub.hosted.rows().find((r) => r.threadId === id));
      assert.ok(hub.hosted.own?.session(id), "held by the window's host");
      assert.equal(hub.hosted.link.session(id), undefined, "not by the socket host");
      assert.equal(hub.hosted.linkOf(id), hub.hosted.own, "its requests go to the window's host");
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const card = await waitFor("the question as the panel's card", () => hub.broker.pendingFor(id)[0]);
      await waitFor("the panel following the host", () => hub.hosted.get(id));
      // a terminal reaches only the socket host, which does not hold the thread
      const answer = await cli(hub.home, ["answer", id, "--option", "reject"]);
      assert.notEqual(answer.code, 0, "a terminal's answer does not reach the window's host");
      assert.equal(hub.broker.pendingFor(id).length, 1, "the card still waits");
      assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
      const decided = await waitFor("the permission record", () =>
        records(hub, id).find((r) => r.kind === "permission"),
      );
      assert.equal(decided.kind === "permission" && decided.optionId, "yes");
      await waitFor("the file written", () => existsSync(out));
      await waitFor("the turn ended", () => records(hub, id).some((r) => r.kind === "turn_end"));
      await hub.hosted.stop(id);
      await waitFor("its row gone once the run ended", () => !hub.hosted.rows().some((r) => r.threadId === id));
    } finally {
      rmSync(out, { force: true });
    }
  });

  it("beside the socket host: both rows show and each thread's prompt goes to its own host", async () => {
    const { hub } = await api();
    const mine = await startIn(hub, "hello");
    const theirs = await startIn(hub, "hello", "approve-reads", true);
    const detached = await detach(hub.home, ["hello"]);
    try {
      await waitFor("the rows of both hosts", () => {
        const ids = hub.hosted.rows().map((r) => r.threadId);
        return ids.includes(mine) && ids.includes(theirs);
      });
      await waitFor("the run --detach thread ran in the socket host", () =>
        records(hub, detached).some((r) => r.kind === "turn_end"),
      );
      await waitFor("the socket host's row read", () => hub.hosted.link.session(theirs));
      assert.equal(hub.hosted.linkOf(theirs), hub.hosted.link);
      assert.equal(hub.hosted.linkOf(mine), hub.hosted.own);
      const turns = (id: string) => records(hub, id).filter((r) => r.kind === "turn_end").length;
      await waitFor("the first turns ended", () => turns(mine) === 1 && turns(theirs) === 1);
      for (const id of [mine, theirs]) {
        const c = await hub.hosted.linkOf(id).connection();
        assert.ok(c);
        await c.request({ t: "prompt", threadId: id, text: `again ${id.slice(0, 8)}` });
      }
      await waitFor("each second turn ended", () => turns(mine) === 2 && turns(theirs) === 2);
      // a prompt sent to the host that does not hold the thread is refused there (each host holds its own)
      const wrong = await hub.hosted.link.connection();
      await assert.rejects(wrong!.request({ t: "prompt", threadId: mine, text: "to the wrong host" }));
    } finally {
      await hub.hosted.stop(mine).catch(() => undefined);
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("stopping the window's host interrupts a running turn; the thread file says so", async () => {
    const { hub } = await api();
    const id = await startIn(hub, "sleep 60000");
    await waitFor("the turn running", () =>
      records(hub, id).some((r) => r.kind === "agent_message" && r.text.includes("sleeping")),
    );
    await hub.windowHost.stop();
    // stop() resolves once the run closed its session: the turn's end is recorded by then, cancelled
    const end = hub.threads.read(id).records.findLast((r) => r.kind === "turn_end");
    assert.equal(end?.kind === "turn_end" ? end.stopReason : undefined, "cancelled", "the thread file says so");
    await waitFor("its row gone", () => !hub.hosted.rows().some((r) => r.threadId === id));
  });
});
