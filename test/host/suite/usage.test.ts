// Issue 13's usage in the editor: the status-bar figure of a live session (tokens, the cost its agent reports,
// context fill), and the Usage view's report per thread, agent, model and day: costs only where the agent
// reported one, tokens otherwise. The stdio fake agent's `cost IN OUT CUMULATIVE` turn reports like
// claude-agent-acp (a usage_update with a cumulative session cost, tokens in the prompt response).
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { api, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import type { TestSession } from "./session-of";

async function turn(s: TestSession, text: string): Promise<void> {
  const done = new Promise<void>((r) => s.onTurnDone(() => r()));
  await s.prompt(text);
  await done;
}

/** A past thread of another agent that reported tokens and no cost, as an earlier run would have left it. */
function writeTokensOnlyThread(home: string): string {
  const h = new ThreadStore(home).create({
    agent: { id: "tokens-only", name: "Tokens-only agent", command: "/bin/true" },
    mode: "acp",
    cwd: workspaceRoot(),
    repoRoot: null,
    gitHead: null,
    title: "tokens only",
  });
  const ts = new Date().toISOString();
  h.appendMany([
    { v: 1, ts, kind: "user_message", messageId: "u0", text: "hi" },
    { v: 1, ts, kind: "agent_message", messageId: "a0", text: "hello" },
    {
      v: 1,
      ts,
      kind: "turn_end",
      stopReason: "end_turn",
      usage: { inputTokens: 70, outputTokens: 30, totalTokens: 100 },
    },
  ] as never);
  h.close();
  return h.threadId;
}

describe("usage in the editor (#13)", () => {
  before(useFakeAgent);
  after(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("the status bar shows the live session's reported cost, tokens and context; the Usage view sums per thread, agent, model and day", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake();
    await turn(s, "cost 1200 300 0.05");
    await turn(s, "cost 800 200 0.08"); // the agent's session cost is cumulative: this turn cost 0.03

    const reading = hub.usageStatus.readingOf(s.threadId)!;
    assert.deepEqual(
      { tokens: reading.tokens, costs: reading.costs, used: reading.contextUsed, size: reading.contextSize },
      { tokens: 2500, costs: [{ currency: "USD", amount: 0.08 }], used: 1000, size: 200_000 },
    );
    assert.equal(hub.usageStatus.item.text, "$(graph) $0.08 · 2.5k tok · ctx 1%");
    assert.equal(hub.usageStatus.item.command, "acpThreads.showUsage");

    const tokensOnly = writeTokensOnlyThread(hub.home);
    await vscode.commands.executeCommand("acpThreads.showUsage");
    const first = await waitFor("the view's first report", () => hub.usageView.lastReport);
    assert.equal(first.by, "day");
    const byThread = await hub.usageView.report("thread", "all");
    const mine = byThread.rows.find((r) => r.key === s.threadId);
    assert.ok(mine, "the live thread has a row");
    assert.equal(mine.totalTokens, 2500);
    assert.equal(mine.turns, 2);
    assert.deepEqual(mine.costs, [{ currency: "USD", amount: 0.08 }]);
    const other = byThread.rows.find((r) => r.key === tokensOnly);
    assert.equal(other?.label, "tokens only", "thread rows carry their titles");
    assert.equal(other?.totalTokens, 100);
    assert.deepEqual(other?.costs, [], "no cost reported, none shown: nothing is priced");
    const byAgent = await hub.usageView.report("agent", "today");
    assert.deepEqual(byAgent.rows.map((r) => [r.label, r.totalTokens, r.costs]).sort(), [
      ["Fake agent", 2500, [{ currency: "USD", amount: 0.08 }]],
      ["Tokens-only agent", 100, []],
    ]);
    const byDay = await hub.usageView.report("day", "7d");
    assert.equal(byDay.rows.length, 1, "one day");
    assert.equal(byDay.total.totalTokens, 2600);
    const byModel = await hub.usageView.report("model", "all");
    assert.equal(byModel.total.totalTokens, 2600, "turns without a known model still count");
    await s.close();
  });

  it("the status bar shows the focused thread's usage, as its header does, not the session that changed last (#37)", async () => {
    const { hub } = await api();
    const a = await spawnIdleFake();
    await turn(a, "cost 100 50 0.05");
    const b = await spawnIdleFake(); // its panel opens focused
    await turn(b, "cost 100 50 0.20");
    hub.panels.open(a.threadId, { preserveFocus: false });
    await waitFor("a's panel to be the focused one", () => hub.panels.lastActive() === a.threadId);
    await turn(b, "cost 100 50 0.30"); // b's usage changes last, a stays focused
    const header = await waitFor("a's header figure", () => hub.panels.shown(a.threadId)?.usage);
    assert.match(header, /^\$0\.05 · /);
    assert.equal(hub.usageStatus.item.text, `$(graph) ${header}`, "the status bar says what a's header says");
    hub.panels.open(b.threadId, { preserveFocus: false });
    await waitFor("b's panel to be the focused one", () => hub.panels.lastActive() === b.threadId);
    const other = await waitFor(
      "b's header figure",
      () => /0\.30/.test(hub.panels.shown(b.threadId)?.usage ?? "") && hub.panels.shown(b.threadId)!.usage,
    );
    assert.equal(hub.usageStatus.item.text, `$(graph) ${other}`);
    await a.close();
    await b.close();
  });
});
