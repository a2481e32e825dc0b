// Issue 35 item 2 in the real extension host: the first answer to a question of the thread host wins, and every
// other client shows who answered. Here the window's card loses the race: a terminal's `acp-threads answer` came
// first, and the window has not yet read the host's `settled` push saying so (the link's test-only
// `holdPushesForTests` keeps it back, so the race is met every time, not by the load) when the person clicks the
// card. The host refuses the window's late answer; the card must end showing the terminal's answer and its name,
// not the choice the person clicked. The run's queue holds an `until FILE` turn after the question's, so the host
// still holds the run when the card is clicked (else, under load, the run could end first and the window close the
// card on the `ended` push, a race CI met). The second test is that other order: the run ended before the click.
// The card names the winning option by its name, not its id (stop 47).
import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli, detach } from "./host-cli";

describe("a question of the thread host answered first by a terminal, then on the window's card", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("the card's late answer is refused and the card shows the terminal's answer and its name", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), "answered-late.txt");
    const done = join(workspaceRoot(), "answered-late.done");
    rmSync(out, { force: true });
    rmSync(done, { force: true });
    const id = await detach(hub.home, ["--permission", "ask", `write ${out} from the host`, `until ${done}`]);
    try {
      await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const card = await waitFor("the question as the panel's card", () => hub.broker.pendingFor(id)[0]);
      const panel = await waitFor("the panel", () => hub.panels.panelOf(id));
      const held = hub.hosted.link.holdPushesForTests((m) => m.t === "settled" && m.threadId === id);
      try {
        // the terminal rejects first; the window does not hear of it yet: its card still waits
        const answer = await cli(hub.home, ["answer", id, "--option", "reject"]);
        assert.equal(answer.code, 0, answer.stderr);
        assert.equal(hub.broker.pendingFor(id).length, 1, "the window has not heard the terminal's answer");
        // the person clicks Allow: the host refuses it, and the refusal says who answered first, with what
        assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
        await showsTerminalsAnswer(panel);
      } finally {
        held.dispose();
      }
      // the host's `settled` push, heard now, leaves the card as it is
      assert.equal(panel.shown.answeredOption, "no");
      assert.match(panel.shown.answeredBy, /^acp-threads answer \(pid \d+\)$/);
      // what the card draws: the winning option by its name (the fake agent's "Reject", id "no"), and who gave it
      const drawn = await waitFor("the card's answered line", () =>
        hub.panels.rendered(id)?.answered.find((t) => t.includes("answered by acp-threads answer")),
      );
      assert.match(drawn, /^\s*Permission: Reject answered by acp-threads answer \(pid \d+\)$/);
      // the terminal's answer is the one the agent got: the record says rejected, the file was not written
      const decided = await waitFor("the permission record", () =>
        hub.threads.read(id).records.find((r) => r.kind === "permission"),
      );
      assert.equal(decided.kind === "permission" && decided.optionId, "no");
      writeFileSync(done, "");
      await waitFor("the run in the host to end", () => !hub.hosted.rows().some((r) => r.threadId === id), 30_000);
      assert.equal(existsSync(out), false, "the rejected write was not made");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(out, { force: true });
      rmSync(done, { force: true });
    }
  });

  it("when the run ended before the click, the card still ends showing the terminal's answer", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), "answered-ended.txt");
    rmSync(out, { force: true });
    const id = await detach(hub.home, ["--permission", "ask", `write ${out} from the host`]);
    try {
      await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const card = await waitFor("the question as the panel's card", () => hub.broker.pendingFor(id)[0]);
      const panel = await waitFor("the panel", () => hub.panels.panelOf(id));
      // neither the `settled` push nor the `ended` one reach the window: its card still waits
      const held = hub.hosted.link.holdPushesForTests(
        (m) => (m.t === "settled" || m.t === "ended") && m.threadId === id,
      );
      try {
        const answer = await cli(hub.home, ["answer", id, "--option", "reject"]);
        assert.equal(answer.code, 0, answer.stderr);
        // the agent takes the rejection, its turn and the run end: the host no longer holds the thread
        await waitFor("the run in the host to end", () => !hub.hosted.rows().some((r) => r.threadId === id), 30_000);
        assert.equal(hub.broker.pendingFor(id).length, 1, "the window has not heard the terminal's answer");
        // the click reaches a host that no longer holds the run: its refusal cannot name who answered
        const view = hub.hosted.get(id);
        assert.ok(view, "the window still follows the run: it has not heard it end");
        assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
        await view.answeredForTests(); // the host's reply came before its pushes, the order met least often
      } finally {
        held.dispose(); // the pushes, in the host's order: `settled` names the terminal, then `ended`
      }
      await showsTerminalsAnswer(panel);
      assert.equal(existsSync(out), false, "the rejected write was not made");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(out, { force: true });
    }
  });
});

/** The card ends showing the terminal's answer (reject: "no") and its name, whatever the person clicked. */
async function showsTerminalsAnswer(panel: { shown: { answeredOption: string; answeredBy: string } }): Promise<void> {
  await waitFor(
    "the card showing the terminal's answer",
    () => panel.shown.answeredOption === "no" && /^acp-threads answer \(pid \d+\)$/.test(panel.shown.answeredBy),
  ).catch((err: Error) => {
    throw new Error(
      `${err.message}; the card shows ${JSON.stringify(panel.shown.answeredOption)} answered by ${JSON.stringify(panel.shown.answeredBy)}`,
    );
  });
}
