// The agent's `elicitation/create` answered in the editor (src/vscode/elicitation-asker.ts): the stdio fake
// agent's "elicit" turn asks a form (name default "Ada", count default 3); accepting every step sends the
// defaults, and Escape cancels.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { spawnIdleFake, useFakeAgent, waitFor } from "./helpers";

const agentText = (events: RuntimeEvent[]) =>
  events.map((e) => (e.type === "text" && e.stream === "output" ? e.text : "")).join("");

/** Runs the "elicit" turn, running `command` on whatever quick input is open until the turn ends. */
async function elicit(command: string): Promise<string> {
  const s = await spawnIdleFake();
  const before = s.events.length;
  let ended = false;
  s.onTurnDone(() => (ended = true));
  void s.prompt("elicit");
  await waitFor("the form to be answered and the turn to end", async () => {
    if (!ended) await vscode.commands.executeCommand(command);
    return ended;
  });
  const text = agentText(s.events.slice(before));
  await s.close();
  return text;
}

describe("elicitation in the editor", () => {
  before(useFakeAgent);

  it("asks the form as quick-input steps; accepting each step sends the defaults", async () => {
    assert.equal(
      await elicit("workbench.action.acceptSelectedQuickOpenItem"),
      'elicitation: accept {"name":"Ada","count":3}',
    );
  });

  it("Escape on a step cancels the question and the turn goes on", async () => {
    assert.equal(await elicit("workbench.action.closeQuickOpen"), "elicitation: cancel");
  });
});
