// Issue 35, a new user's daily path with the default setting (acpThreads.host.runSessions removed: `auto`, the
// thread host on POSIX), in the real extension host: what host-default.test.ts, host-place, host-serve and the
// other host-* suites do not run on a thread the host runs. The inline permission card's Reject and Allow always
// (Allow once: host-serve.test.ts), the write landing in the open editor; the ledger's per-turn Revert of a hosted
// turn; a slash command the agent advertises, offered in the panel's box and sent to the hosted agent; the
// agent's terminal, asked on the card (approve-reads, the default; host-terms.test.ts runs it under approve-all). Each as
// the window path does it (ledger.test.ts, permission-ui.test.ts, composer.test.ts).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { PermissionStore } from "../../../src/core/acp/permission-store";
import type { ThreadRecord } from "../../../src/core/model/records";
import { api, ledgerDiff, terminalScreen, waitFor, workspaceRoot } from "./helpers";
import { defaultRunSessions, sendIn, sendNewInHost, turnsEnded } from "./host-cli";

const AGENT = "daily-host";

describe("runSessions auto, the default: a new user's day on a hosted thread (#35)", () => {
  defaultRunSessions({ [AGENT]: { FAKE_AGENT_COMMANDS: "1" } });

  const records = async (id: string): Promise<readonly ThreadRecord[]> => (await api()).hub.threads.read(id).records;
  const send = (id: string, text: string) => sendIn(id, [{ type: "text", text }]);

  /** A workspace file holding `text` on disk, open in an editor (saved). */
  async function opened(name: string, text: string): Promise<{ path: string; doc: vscode.TextDocument }> {
    const path = join(workspaceRoot(), name);
    writeFileSync(path, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    await vscode.window.showTextDocument(doc, { preview: false });
    return { path, doc };
  }

  /** The card on thread `id` (offering `offered`: a write's by default), answered with `optionId` as its button does. */
  async function answerCard(id: string, optionId: string, offered = ["yes", "always", "no"]): Promise<void> {
    const { hub } = await api();
    const card = await waitFor("the card in this window", () => hub.broker.pendingFor(id)[0]);
    assert.deepEqual(
      card.options.map((o) => o.optionId).filter((o) => offered.includes(o)),
      offered,
      "Allow once, Always and Reject offered",
    );
    assert.ok(hub.broker.answer(card.requestId, optionId), `the card's ${optionId}`);
  }

  it("the write's card: Reject leaves the file; Always writes into the open editor and lets the next write through", async () => {
    const { hub } = await api();
    const { path, doc } = await opened("daily-host-perm.txt", "as the user left it");
    const id = await sendNewInHost(AGENT, [{ type: "text", text: `write ${path} rejected text` }]);
    const view = await waitFor("the panel following the host's run", () => hub.hosted.get(id));

    await answerCard(id, "no");
    await waitFor("the rejected turn's end", async () => (await turnsEnded(id)) === 1);
    assert.equal(readFileSync(path, "utf8"), "as the user left it", "nothing written on Reject");
    assert.equal(doc.getText(), "as the user left it");
    await waitFor("the host's run idle, kept open", () => view.status === "idle");

    await send(id, `write ${path} allowed always`);
    await answerCard(id, "always");
    await waitFor("the write in the open editor", () => doc.getText() === "allowed always");
    await waitFor("the second turn's end", async () => (await turnsEnded(id)) === 2);
    assert.equal(readFileSync(path, "utf8"), "allowed always", "and saved");

    // remembered: the next write to the same file is not asked (the turn could not end otherwise: nobody answers)
    await send(id, `write ${path} remembered`);
    await waitFor("the third turn's end, unasked", async () => (await turnsEnded(id)) === 3);
    assert.equal(doc.getText(), "remembered");
    assert.equal(readFileSync(path, "utf8"), "remembered");
    assert.deepEqual(hub.broker.pendingFor(id), [], "no card");
    const rules = await new PermissionStore(hub.home).rules();
    assert.ok(
      rules.some((r) => r.agentId === AGENT),
      `the rule is remembered for the agent: ${JSON.stringify(rules)}`,
    );
    assert.equal(hub.hosted.get(id), view, "one hosted run throughout");
    assert.equal(hub.live.get(id), undefined, "no session of this window");
  });

  it("the ledger's per-turn Review and Revert of a hosted turn: its diff, then the file and its editor put back", async () => {
    const { hub } = await api();
    const { path, doc } = await opened("daily-host-revert.txt", "before the agent\n");
    const id = await sendNewInHost(AGENT, [{ type: "text", text: `write ${path} the agent's text` }]);
    await answerCard(id, "yes");
    await waitFor("the write in the open editor", () => doc.getText() === "the agent's text");
    await waitFor("the turn's end", async () => (await turnsEnded(id)) === 1);
    const turn = await waitFor("the ledger's turn 1, as the window reads it", () =>
      hub.ledger.ledger.read(id).ops.find((o) => o.op === "turn-1" && o.summary),
    ).catch((err: Error) => {
      throw new Error(`${err.message}; ops ${JSON.stringify(hub.ledger.ledger.read(id).ops)}`);
    });
    assert.deepEqual(
      turn.files.map((f) => f.path),
      [path],
    );
    await waitFor("the panel's changed-files row", () =>
      hub.panels.panelOf(id)?.shown.changed.includes("daily-host-revert.txt"),
    );
    // the row's Review: the turn's diff, from the ledger's copy of the file before it
    await vscode.commands.executeCommand("acpThreads.reviewTurn", id, 1);
    const input = await ledgerDiff();
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), "before the agent\n");
    assert.equal(input.modified.fsPath, path);
    // the row's Revert (the panel posts restoreTurn with the turn; `yes`: the confirmation answered)
    const op = await vscode.commands.executeCommand<string>("acpThreads.restoreTurn", id, 1, { yes: true });
    assert.match(op ?? "", /^restore-/, "restored");
    assert.equal(readFileSync(path, "utf8"), "before the agent\n");
    await waitFor("the editor back to before the turn", () => doc.getText() === "before the agent\n");
  });

  it("a slash command the hosted agent advertises is offered in the box and reaches the agent as typed", async () => {
    const { hub } = await api();
    const id = await sendNewInHost(AGENT, [{ type: "text", text: "hello" }]);
    const view = await waitFor("the panel following the host's run", () => hub.hosted.get(id));
    await waitFor("the first turn's end", async () => (await turnsEnded(id)) === 1);
    await waitFor("the agent's commands in the hosted run's state", () =>
      view.sessionState?.commands.some((c) => c.name === "review"),
    );
    await waitFor("the box's / completion offers them", () =>
      hub.panels.shown(id)?.commands.join(",") === "review,init" ? true : undefined,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the box offers ${JSON.stringify(hub.panels.shown(id)?.commands)}`);
    });
    await send(id, "/review the tests");
    await waitFor("the second turn's end", async () => (await turnsEnded(id)) === 2);
    const said = (await records(id)).flatMap((r) => (r.kind === "agent_message" ? [r.text] : [])).join("");
    assert.match(said, /echo: \/review the tests/, `the agent got the command: ${said}`);
    assert.equal(hub.live.get(id), undefined, "no session of this window");
  });

  it("the agent's terminal, asked on the card and allowed, is an integrated terminal with its output", async () => {
    const command = "echo daily-terminal-says-hi";
    const id = await sendNewInHost(AGENT, [{ type: "text", text: `terminal ${command}` }]);
    await answerCard(id, "allow", ["allow", "allow-always", "reject"]);
    const shown = () => vscode.window.terminals.filter((t) => t.name.includes(command));
    try {
      const term = await waitFor("the hosted terminal", () => shown()[0]);
      assert.equal(term.name, `${AGENT}: ${command}`, "named as the window's own sessions' terminals");
      await waitFor("its output on the screen", async () =>
        (await terminalScreen(term)).includes("daily-terminal-says-hi"),
      );
      await waitFor("the turn's end", async () => (await turnsEnded(id)) === 1);
      const answer = (await records(id)).flatMap((r) => (r.kind === "agent_message" ? [r.text] : [])).join("");
      assert.match(answer, /exit 0: daily-terminal-says-hi/);
    } finally {
      for (const t of shown()) t.dispose();
    }
  });
});
