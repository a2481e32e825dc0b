// #35's leftovers (stop 46) in the real extension host: who answered a permission, in the thread's record and on
// the panel's card after a reopen. A window session's write answered on its card: the thread's permission record
// names this window (as its `answered` event does), and the panel opened again from the records draws the card
// "answered by" it. A thread the thread host runs, answered by a terminal's `acp-threads answer`: its panel closed
// and opened again while the run goes on (the host sends the thread so far) names the terminal. A thread whose
// records hold a permission another client answered: its panel names that client, as text (another process's name).
// Stop 47: the cards name the option by its name (the fake agent's "Allow", id "yes"); hostile, a window session's
// option named with a key and an env value: the record and the reopened card keep the name without either.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { PermissionRecord } from "../../../src/core/model/records";
import type { RenderedView } from "../../../src/webview/thread/protocol";
import { api, newPastThread, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach } from "./host-cli";
import { useHostile, world } from "./hostile-world";

/** Opens the thread's panel anew (from its records: no session runs) and waits for its "answered by" lines. */
async function reopened(threadId: string): Promise<string[]> {
  return (await reopenedView(threadId)).answeredBy;
}

/** Opens the thread's panel anew and waits for a card naming who answered: what the panel drew. */
async function reopenedView(threadId: string): Promise<RenderedView> {
  const { hub } = await api();
  hub.panels.get(threadId)?.dispose();
  await vscode.commands.executeCommand("acpThreads.openThread", threadId);
  await waitFor("the reopened thread to render", () => (hub.panels.rendered(threadId)?.entries ?? 0) > 0);
  return await waitFor("a card naming who answered", () => {
    const view = hub.panels.rendered(threadId);
    return view?.answeredBy.length ? view : undefined;
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
    const view = await reopenedView(s.threadId);
    assert.deepEqual(view.answeredBy, [`answered by ${hub.hosted.client}`]);
    assert.match(view.answered[0] ?? "", /^\s*Permission: Allow \(/, "the option by its name (its id is yes)");
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
      const view = await reopenedView(id);
      const [by, ...more] = view.answeredBy;
      assert.match(by ?? "", /^answered by acp-threads answer \(pid \d+\)$/);
      assert.match(view.answered[0] ?? "", /^\s*Permission: Allow \(/, "the option by its name (its id is yes)");
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

  it("hostile: an option named with a key and an env value: the record and the cards keep its name without them", async () => {
    const { hub } = await api();
    const w = world();
    await useHostile(w);
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global); // the command is asked
    const secrets = ["sk-proj-Zq8vR2mN4xT6yW1bC3dF5gH7", "hunter22"];
    const name = `Yes, run \`OPENAI_API_KEY=${secrets[0]} DB_URL=pg://u:${secrets[1]}@db npm test\` this time`;
    const label = "Yes, run `OPENAI_API_KEY=… DB_URL=… npm test` this time";
    const options = [
      { optionId: "proceed_once", name, kind: "allow_once" },
      { optionId: "cancel", name: "No", kind: "reject_once" },
    ];
    const ask = { title: "npm test", kind: "execute", rawInput: { command: "npm test" } };
    let threadId: string;
    try {
      const s = await spawnIdleFake("", "hostile");
      threadId = s.threadId;
      try {
        // the names from a file outside the workspace: the thread keeps the prompt, the ledger the workspace's files
        const optionsFile = join(w.dir, "options.json");
        writeFileSync(optionsFile, JSON.stringify(options));
        const turn = s.prompt(`script ${JSON.stringify([{ ask, optionsFile }])}`);
        const card = await waitFor("the card", () => hub.broker.pendingFor(s.threadId)[0]);
        assert.ok(hub.broker.answer(card.requestId, "proceed_once"), "what the card's button calls");
        await turn;
      } finally {
        await s.close();
      }
    } finally {
      await useFakeAgent(); // the agents and permission mode the other tests expect
      rmSync(w.dir, { recursive: true, force: true });
    }
    const asked = hub.threads.read(threadId).records.filter((r): r is PermissionRecord => r.kind === "permission");
    assert.deepEqual(
      asked.map((r) => [r.optionId, r.optionName, r.answeredBy]),
      [["proceed_once", label, hub.hosted.client]],
    );
    const file = readFileSync(hub.threads.pathFor(threadId), "utf8");
    for (const s of secrets) assert.ok(!file.includes(s), `the thread's file holds ${s}`);
    const view = await reopenedView(threadId);
    assert.equal(view.answered.length, 1, JSON.stringify(view));
    assert.ok(view.answered[0]?.includes(`Permission: ${label} (`), JSON.stringify(view));
    for (const s of secrets) assert.ok(!JSON.stringify(view).includes(s), `the card shows ${s}`);
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
