// #35 item 7 step 3 in the real extension host: the window's own in-process thread host (window-host.ts), reached
// through the hub's objects as the other host suites reach `hub.hosted`. A thread started there with the run spec
// host-run.ts sends the socket host shows its row and its panel follows it; a permission is answered in the panel
// (a terminal's `acp-threads answer` cannot reach it: that host has no socket); with the user's socket host also
// running a `run --detach` thread both rows show and each thread's prompt goes to its own host; stopping the
// window's host (what the window's shutdown does) interrupts a running turn and the thread file says so. What reads
// a thread's host goes to the window's own for a thread it holds: a follow-up prompt (host-entry.ts), a rename (also
// one sent before the window heard the thread's row), an agent's terminal (its output shown, typing sent back). Its
// thread is drawn in the Sessions view as a window session's `live` row (with no panel following it: from the host's
// row), whose Cancel, Rename and Stop go to the run. Its threads' events reach the extension's API and the status
// bar's usage figure, as the socket host's threads' do.
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ThreadEvent } from "../../../src/vscode/api";
import { promptInHost } from "../../../src/vscode/host/host-entry";
import { writeTitle } from "../../../src/vscode/host/hosted-rename";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { policyAllowed, timeless } from "../../fixtures/fake-agents/ask-events";
import { api, hoveredRow, terminalScreen, tipText, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach } from "./host-cli";
import { startIn, type Hub } from "./own-host";

const records = (hub: Hub, id: string) => hub.threads.read(id).records;
const turns = (hub: Hub, id: string) => records(hub, id).filter((r) => r.kind === "turn_end").length;

/** A thread of the window's own host whose first turn ended, its row heard: its id. */
async function idleIn(hub: Hub): Promise<string> {
  const id = await startIn(hub, "hello");
  await waitFor("the first turn ended", () => turns(hub, id) === 1);
  await waitFor("its row", () => hub.hosted.own?.session(id));
  return id;
}

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
      // a thread of the window's own host stays the window's: not tagged as the thread host's (thread-tag.ts)
      assert.ok(!hub.threads.read(id).metadata.tags.includes("runs:host"), "not tagged runs:host");
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
      await waitFor("the first turns ended", () => turns(hub, mine) === 1 && turns(hub, theirs) === 1);
      for (const id of [mine, theirs]) {
        const c = await hub.hosted.linkOf(id).connection();
        assert.ok(c);
        await c.request({ t: "prompt", threadId: id, text: `again ${id.slice(0, 8)}` });
      }
      await waitFor("each second turn ended", () => turns(hub, mine) === 2 && turns(hub, theirs) === 2);
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

  it("a follow-up prompt with no panel open goes into the window's host's run (host-entry.ts), not a window session", async () => {
    const { hub } = await api();
    const id = await idleIn(hub);
    try {
      assert.equal(hub.hosted.get(id), undefined, "no panel follows it");
      const went = await promptInHost(hub, id, [{ type: "text", text: "again from the composer" }]);
      assert.equal(went, "sent", "into the window's host's run");
      await waitFor("the second turn ended in the same run", () => turns(hub, id) === 2);
      assert.equal(hub.live.get(id), undefined, "no window session of it");
      assert.ok(hub.hosted.own?.session(id), "the window's host still holds it");
      assert.ok(
        hub.hosted.sessions.some((s) => s.threadId === id),
        "the composer's agents' logins see its run",
      );
    } finally {
      await hub.hosted.stop(id).catch(() => undefined);
    }
  });

  it("its threads' events reach the extension's API and the status bar as the socket host's do, a policy's answers too", async () => {
    const { hub } = await api();
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    const mine = () => seen.filter((e) => e.threadId === id);
    const id = await startIn(hub, "cost 10 20 0.5");
    try {
      await waitFor("the turn's usage event", () => mine().some((e) => e.kind === "usage"));
      const reading = await waitFor("the status bar's figure of its turn", () => {
        const r = hub.usageStatus.readingOf(id);
        return r?.costs.length ? r : undefined;
      });
      assert.deepEqual([reading.tokens, reading.costs], [30, [{ currency: "USD", amount: 0.5 }]]);
      assert.equal(await promptInHost(hub, id, [{ type: "text", text: "ask read" }]), "sent");
      await waitFor("the second turn's end", () => mine().filter((e) => e.kind === "turn_ended").length === 2);
      assert.deepEqual(
        mine().map((e) => e.kind),
        ["started", "turn_started", "turn_ended", "usage", "turn_started", "answered", "turn_ended"],
      );
      // approve-reads: the policy allowed the read, nobody was asked (as a window session tells it)
      assert.deepEqual(timeless(mine().find((e) => e.kind === "answered")), policyAllowed(id));
      await hub.hosted.stop(id);
      await waitFor("its end", () => mine().some((e) => e.kind === "ended"));
      await waitFor("the status bar lets it go", () => !hub.usageStatus.readingOf(id));
    } finally {
      sub.dispose();
      await hub.hosted.stop(id).catch(() => undefined);
    }
  });

  it("a rename of a thread the window's host holds is written by its run, also before the window heard its row", async () => {
    const { hub } = await api();
    const id = await idleIn(hub);
    try {
      await writeTitle(hub, id, "Renamed in the window's host");
      await waitFor("the title", () => hub.threads.read(id).metadata.title === "Renamed in the window's host");
      // a window that has not read the host's rows yet: the store's write is refused (the run holds the file),
      // and the host that holds it writes it
      const held = hub.hosted.own!.holdRowsForTests();
      try {
        const again = await startIn(hub, "hello");
        await waitFor("its first turn ended", () => turns(hub, again) === 1);
        assert.equal(hub.hosted.holds(again), false, "its row not heard");
        await writeTitle(hub, again, "Renamed before its row");
        await waitFor("the title", () => hub.threads.read(again).metadata.title === "Renamed before its row");
        held.dispose();
        await hub.hosted.stop(again).catch(() => undefined);
      } finally {
        held.dispose();
      }
    } finally {
      await hub.hosted.stop(id).catch(() => undefined);
    }
  });

  it("an agent's terminal in the window's host is shown here, with its output, and what is typed reaches it", async () => {
    const { hub } = await api();
    const command = "echo own-host-terminal-says-hi; cat";
    const id = await startIn(hub, `terminal ${command}`, "approve-all");
    try {
      const shown = await waitFor("the terminal", () => vscode.window.terminals.find((t) => t.name.includes(command)));
      await waitFor("its output", async () => (await terminalScreen(shown)).includes("own-host-terminal-says-hi"));
      shown.sendText("typed-into-the-own-host");
      await waitFor("cat's echo of the typing", async () =>
        (await terminalScreen(shown)).includes("typed-into-the-own-host"),
      );
      shown.sendText("\x04", false);
      await waitFor("the agent's answer with the typing", () =>
        records(hub, id).some((r) => r.kind === "agent_message" && r.text.includes("typed-into-the-own-host")),
      );
    } finally {
      await hub.hosted.stop(id).catch(() => undefined);
    }
  });

  it("its thread is a window session's live row in the Sessions view; the row's Cancel, Rename and Stop reach the run", async () => {
    const { hub } = await api();
    const id = await idleIn(hub);
    const rows = async () =>
      (await hub.tree.getChildren()).flatMap((g): SessionNode[] => (g.type === "group" ? g.children : []));
    const isRow = (n: SessionNode) => (n.type === "live" || n.type === "hosted") && n.threadId === id;
    try {
      const node = await waitFor("its row", async () => (await rows()).find(isRow));
      assert.equal(node.type, "live", "a live row, not a thread host's row");
      const live = (await hub.tree.getChildren()).find((g) => g.type === "group" && g.id === "live");
      assert.ok(live?.type === "group" && live.children.some(isRow), "under Live");
      assert.equal(hub.hosted.get(id), undefined, "no panel follows it: drawn from the host's row");
      const idle = await hoveredRow(node);
      assert.equal(idle.contextValue, "live", "nothing to cancel");
      assert.equal((idle.iconPath as vscode.ThemeIcon).id, "circle-filled");
      assert.match(String(idle.description), /^Fake agent · \d+s$/);
      assert.match(tipText(idle.tooltip).replace(/\\/g, ""), /Ready for a follow-up · Fake agent · started/);
      const c = await hub.hosted.own!.connection();
      await c!.request({ t: "prompt", threadId: id, text: "sleep 60000" });
      await waitFor(
        "Cancel offered while its turn runs",
        () => hub.tree.getTreeItem(node).contextValue === "live-working",
      );
      await vscode.commands.executeCommand("acpThreads.cancel", node);
      await waitFor("the turn ended cancelled", () => turns(hub, id) === 2);
      const end = records(hub, id).findLast((r) => r.kind === "turn_end");
      assert.equal(end?.kind === "turn_end" && end.stopReason, "cancelled");
      await vscode.commands.executeCommand("acpThreads.rename", node, "Renamed on its live row");
      // the run writes it on the thread pool (durability soon): in the file a moment after the rename's reply
      await waitFor("the title written by its run", () =>
        hub.threads.read(id).metadata.title === "Renamed on its live row" ? true : undefined,
      );
      await waitFor("the row's title", () => hub.tree.getTreeItem(node).label === "Renamed on its live row");
      await vscode.commands.executeCommand("acpThreads.stopSession", node);
      await waitFor("the run ended", () => !hub.hosted.own?.session(id));
      assert.ok(!(await rows()).some((n) => n.type === "live" && n.threadId === id), "no live row once it ended");
    } finally {
      await hub.hosted.stop(id).catch(() => undefined);
    }
  });
});
