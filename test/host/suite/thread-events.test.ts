// #35 item 4 in the real extension host: the extension's API fires the window's thread events (the shapes
// `acp-threads events` prints), and the user's acpThreads.hooks.turnEnded runs with the turn_ended event on its
// stdin. Hostile: a repository's .vscode/settings.json naming a hook does not run it.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ThreadEvent } from "../../../src/vscode/api";
import { api, sleep, spawnIdleFake, useFakeAgent, waitFor, withWorkspaceSettings } from "./helpers";

const marker = () => join(tmpdir(), `acp-hook-${process.pid}-${Date.now()}.json`);
const quoted = (p: string) => `'${p}'`;

async function oneTurn(prompt: string): Promise<string> {
  const s = await spawnIdleFake();
  const done = new Promise<void>((r) => s.onTurnDone(() => r()));
  await s.prompt(prompt);
  await done;
  await s.close();
  return s.threadId;
}

describe("thread events for other extensions and hooks", () => {
  before(useFakeAgent);

  it("the API fires started, turn_ended, usage and ended for the window's sessions", async () => {
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    try {
      const id = await oneTurn("cost 10 20 0.5");
      await waitFor("the session's end", () => seen.some((e) => e.threadId === id && e.kind === "ended"));
      const mine = seen.filter((e) => e.threadId === id);
      assert.deepEqual(
        mine.map((e) => e.kind),
        ["started", "turn_ended", "usage", "ended"],
      );
      const usage = mine.find((e) => e.kind === "usage");
      assert.ok(usage?.kind === "usage");
      assert.deepEqual(usage.tokens, { inputTokens: 10, outputTokens: 20, totalTokens: 30 });
      assert.deepEqual(usage.cost, [{ currency: "USD", amount: 0.5 }]);
    } finally {
      sub.dispose();
    }
  });

  it("the user's hooks.turnEnded runs with the turn_ended event on stdin", async () => {
    const out = marker();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("hooks.turnEnded", `cat > ${quoted(out)}`, vscode.ConfigurationTarget.Global);
    try {
      const id = await oneTurn("cost 1 2 0.25");
      const text = await waitFor("the hook's output", () => (existsSync(out) ? readFileSync(out, "utf8") : ""));
      const event = JSON.parse(text) as { kind: string; threadId: string; usage?: { cost?: unknown } };
      assert.equal(event.kind, "turn_ended");
      assert.equal(event.threadId, id);
      assert.deepEqual(event.usage?.cost, [{ currency: "USD", amount: 0.25 }]);
    } finally {
      await cfg.update("hooks.turnEnded", undefined, vscode.ConfigurationTarget.Global);
      rmSync(out, { force: true });
    }
  });

  it("hostile: a workspace's settings.json naming a hook does not run it", async () => {
    const out = marker();
    await withWorkspaceSettings({ "acpThreads.hooks.turnEnded": `cat > ${quoted(out)}` }, async () => {
      const { hub } = await api();
      assert.equal(hub.config.turnEndedHook, "");
      await oneTurn("hello");
      await sleep(2000); // a hook that ran would have written by now (the user's hook above did in well under)
      assert.equal(existsSync(out), false, "the workspace's hook ran");
    });
    rmSync(out, { force: true });
  });
});
