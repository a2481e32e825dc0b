// #35's leftovers (stop 46) in the real extension host: who answered a permission, in the thread's record and on
// the panel's card after a reopen. A window session's write answered on its card: the thread's permission record
// names this window (as its `answered` event does), and the panel opened again from the records draws the card
// "answered by" it. A thread the thread host runs, answered by a terminal's `acp-threads answer`: its panel closed
// and opened again while the run goes on (the host sends the thread so far) names the terminal. A thread whose
// records hold a permission another client answered: its panel names that client, as text (another process's name).
import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { PermissionRecord } from "../../../src/core/model/records";
import { api, newPastThread, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach } from "./host-cli";

/** Opens the thread's panel anew (from its records: no session runs) and waits for its "answered by" lines. */
async function reopened(threadId: string): Promise<string[]> {
  const { hub } = await api();
  hub.panels.get(threadId)?.dispose();
  await vscode.commands.executeCommand("acpThreads.openThread", threadId);
  await waitFor("the reopened thread to render", () => (hub.panels.rendered(threadId)?.entries ?? 0) > 0);
  return await waitFor("a card naming who answered", () => {
    const by = hub.panels.rendered(threadId)?.answeredBy;
    return by?.length ? by : undefined;
  }).catch((err: Error) => {
    throw new Error(`${err.message}; the panel drew ${JSON.stringify(hub.panels.rendered(threadId))}`);
  });
}

describe("who answered a permission, in the thread's record and on its reopened panel", () => {
  before(useFakeAgent);
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("a window session's write answered on its card: the record and the reopened panel name this window", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), `answered-by-${process.pid}.txt`);
    const s = await spawnIdleFake();
    try {
      const turn = s.prompt(`write ${out} from the window`);
      const card = await waitFor("the card", () => hub.broker.pendingFor(s.threadId)[0]);
      assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
      await turn;
      await waitFor("the turn's end", () => s.status === "idle");
      assert.ok(existsSync(out), "the write the card allowed");
    } finally {
      await s.close();
      rmSync(out, { force: true });
    }
    const asked = hub.threads.read(s.threadId).records.filter((r): r is PermissionRecord => r.kind === "permission");
    assert.deepEqual(
      asked.map((r) => ({ optionId: r.optionId, decidedBy: r.decidedBy, answeredBy: r.answeredBy })),
      [{ optionId: "yes", decidedBy: "user", answeredBy: hub.hosted.client }],
      "the thread's record names this window, as its answered event does",
    );
    assert.deepEqual(await reopened(s.threadId), [`answered by ${hub.hosted.client}`]);
  });

  it("a thread of the thread host answered by a terminal: its panel opened again during the run names the terminal", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), `answered-by-host-${process.pid}.txt`);
    const done = join(workspaceRoot(), `answered-by-host-${process.pid}.done`);
    const id = await detach(hub.home, ["--permission", "ask", `write ${out} from the host`, `until ${done}`]);
    try {
      await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      await waitFor("the question as the panel's card", () => hub.broker.pendingFor(id)[0]);
      const answer = await cli(hub.home, ["answer", id, "--option", "allow"]);
      assert.equal(answer.code, 0, answer.stderr);
      await waitFor("the card to close", () => hub.broker.pendingFor(id).length === 0);
      await waitFor("the permission record", () => hub.threads.read(id).records.some((r) => r.kind === "permission"));
      const [by, ...more] = await reopened(id);
      assert.match(by ?? "", /^answered by acp-threads answer \(pid \d+\)$/);
      assert.deepEqual(more, [], "one card names who answered");
      assert.ok(
        hub.hosted.rows().some((r) => r.threadId === id),
        "the run still goes on in the host",
      );
    } finally {
      writeFileSync(done, "");
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(out, { force: true });
      rmSync(done, { force: true });
    }
  });

  it("a thread's records name another client that answered: its reopened panel shows the name, as text", async () => {
    const { hub } = await api();
    const by = `acp-threads answer (pid 12) <img src=x onerror="alert(1)">`;
    const h = newPastThread(hub.home, "a past thread answered in a terminal");
    const ts = new Date().toISOString();
    const toolCall = { toolCallId: "w1", title: "Write a.txt", kind: "edit", status: "completed" };
    const answered = { toolCallId: "w1", title: "Write a.txt", toolKind: "edit", optionId: "yes" };
    h.appendMany([
      { v: 1, ts, kind: "user_message", messageId: "u1", text: "write a.txt" },
      { v: 1, ts, kind: "tool_call", toolCall: { ...toolCall, content: [], locations: [] } },
      { v: 1, ts, kind: "permission", ...answered, optionKind: "allow_once", decidedBy: "user", answeredBy: by },
      { v: 1, ts, kind: "turn_end", stopReason: "end_turn" },
    ] as never);
    h.close();
    assert.deepEqual(await reopened(h.threadId), [`answered by ${by}`], "the name as text, not as HTML");
  });
});
