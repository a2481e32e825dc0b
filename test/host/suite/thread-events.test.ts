// #35 item 4 in the real extension host: the extension's API fires the window's thread events (the shapes
// `acp-threads events` prints), who answered its permission requests, and the events of a thread the thread host
// runs (`run --detach`), once each, also across a reconnect to the host; the user's acpThreads.hooks.turnEnded runs
// with the turn_ended event on its stdin. Hostile: a repository's .vscode/settings.json naming a hook does not run it.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HostPush } from "../../../src/core/host/protocol";
import type { ThreadEvent } from "../../../src/vscode/api";
import type { HostLink } from "../../../src/vscode/host/host-link";
import { ENDED_REMEMBERED, HostedEvents } from "../../../src/vscode/host/hosted-events";
import { api, sleep, spawnIdleFake, useFakeAgent, waitFor, withWorkspaceSettings, workspaceRoot } from "./helpers";
import { pidAlive } from "../../../src/core/platform/file-lock";
import { cli, detach, waitForHosted } from "./host-cli";

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

  it("the API fires started, turn_started, turn_ended, usage and ended for the window's sessions", async () => {
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    try {
      const id = await oneTurn("cost 10 20 0.5");
      await waitFor("the session's end", () => seen.some((e) => e.threadId === id && e.kind === "ended"));
      const mine = seen.filter((e) => e.threadId === id);
      assert.deepEqual(
        mine.map((e) => e.kind),
        ["started", "turn_started", "turn_ended", "usage", "ended"],
      );
      const usage = mine.find((e) => e.kind === "usage");
      assert.ok(usage?.kind === "usage");
      assert.deepEqual(usage.tokens, { inputTokens: 10, outputTokens: 20, totalTokens: 30 });
      assert.deepEqual(usage.cost, [{ currency: "USD", amount: 0.5 }]);
    } finally {
      sub.dispose();
    }
  });

  it("the window's sessions announce an elicitation (needs_input, then answered with its action) and an error turn", async () => {
    const { hub } = await api();
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    const s = await spawnIdleFake();
    try {
      let ended = false;
      const done = s.onTurnDone(() => (ended = true));
      void s.prompt("elicit");
      // every step of the form accepted (its defaults), as in elicitation.test.ts
      await waitFor("the form answered and the turn ended", async () => {
        if (!ended) await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
        return ended;
      });
      done.dispose();
      await s.prompt("fail the model is down"); // the agent answers the prompt with an error: no `done`
      const mine = () => seen.filter((e) => e.threadId === s.threadId);
      await waitFor("the failed turn's end", () => mine().filter((e) => e.kind === "turn_ended").length >= 2);
      // before, the elicitation and the error turn were silent: only the host's runs told them
      assert.deepEqual(
        mine()
          .filter((e) => e.kind !== "ended")
          .map((e) => e.kind),
        ["started", "turn_started", "needs_input", "answered", "turn_ended", "turn_started", "turn_ended"],
      );
      const [asked, answered] = mine().filter((e) => e.kind === "needs_input" || e.kind === "answered");
      assert.ok(asked?.kind === "needs_input" && answered?.kind === "answered");
      assert.deepEqual(asked.elicitation, { mode: "form", fields: ["name", "count"] });
      assert.deepEqual(asked.question.options, [], "an elicitation's question has no options, as the host's");
      assert.ok(asked.question.title, "its message as the question's title");
      assert.deepEqual(
        { requestId: answered.requestId, optionId: answered.optionId, by: answered.by, action: answered.action },
        { requestId: asked.question.requestId, optionId: null, by: hub.hosted.client, action: "accept" },
      );
      const ends = mine().filter((e) => e.kind === "turn_ended");
      assert.deepEqual(
        ends.map((e) => (e.kind === "turn_ended" ? e.stopReason : "")),
        ["end_turn", "error"],
      );
    } finally {
      sub.dispose();
      await s.close();
    }
  });

  it("answered: who answered the window's own sessions' requests (this window, the policy), the request's id", async () => {
    const { hub } = await api();
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    const s = await spawnIdleFake();
    try {
      const asked = s.prompt("ask edit");
      const card = await waitFor("the card", () => hub.broker.pendingFor(s.threadId)[0]);
      assert.ok(hub.broker.answer(card.requestId, "ok"), "what the card's Allow calls");
      await asked;
      await waitFor("the turn's end", () => s.status === "idle");
      await s.prompt("ask read"); // approve-reads: the policy answers
      await waitFor("both answers", () => seen.filter((e) => e.kind === "answered").length >= 2);
      const mine = seen.filter((e) => e.threadId === s.threadId && (e.kind === "needs_input" || e.kind === "answered"));
      assert.deepEqual(
        mine.map((e) => ({ ...e, at: "" })),
        [
          {
            kind: "needs_input",
            threadId: s.threadId,
            at: "",
            question: {
              threadId: s.threadId,
              requestId: card.requestId,
              toolCallId: "ask-1",
              title: "A edit tool",
              options: card.options,
            },
          },
          {
            kind: "answered",
            threadId: s.threadId,
            at: "",
            requestId: card.requestId,
            optionId: "ok",
            optionName: "Allow", // the option as the card showed it
            by: hub.hosted.client,
          },
          {
            kind: "answered",
            threadId: s.threadId,
            at: "",
            requestId: "ask-1",
            optionId: "ok",
            optionName: "Allow",
            by: "policy",
          },
        ],
      );
      assert.match(hub.hosted.client, /^VS Code window.*, pid \d+$/);
    } finally {
      sub.dispose();
      await s.close();
    }
  });

  it("a run --detach thread's events, once each, also when the connection to the host drops during its turns", async () => {
    const { hub } = await api();
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    const link = hub.hosted.link;
    const check = link.check;
    try {
      const id = await detach(hub.home, ["sleep 5000", "cost 10 20 0.5", "sleep 3000"]);
      const mine = () => seen.filter((e) => e.threadId === id);
      await waitForHosted("started, as the window first sees the thread", () =>
        mine().some((e) => e.kind === "started"),
      );
      // the window is away while the first two turns end: its look for the host waits (the host is there all along)
      let away!: () => void;
      const back = new Promise<void>((r) => (away = r));
      link.check = async () => (await back, check.call(link));
      (await link.connection())?.close();
      await waitFor(
        "two turns ended in the host",
        async () => {
          const records = (await hub.threads.readAsync(id))?.records ?? [];
          return records.filter((r) => r.kind === "turn_end").length >= 2;
        },
        20_000,
      );
      assert.deepEqual(
        mine().filter((e) => e.kind === "turn_ended"),
        [],
        "heard nothing while away",
      );
      away();
      await waitFor("the run's end", () => mine().some((e) => e.kind === "ended"), 30_000);
      await sleep(500); // anything doubled would come now
      assert.deepEqual(
        // a turn's start is not read back across a reconnect (no record tells it apart): only its end is
        mine()
          .filter((e) => e.kind !== "turn_started")
          .map((e) => e.kind),
        ["started", "turn_ended", "turn_ended", "usage", "turn_ended", "ended"],
      );
      const usage = mine().find((e) => e.kind === "usage");
      assert.ok(usage?.kind === "usage");
      assert.deepEqual(usage.cost, [{ currency: "USD", amount: 0.5 }]);
      assert.deepEqual(usage.tokens, { inputTokens: 10, outputTokens: 20, totalTokens: 30 });
    } finally {
      link.check = check;
      sub.dispose();
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("a host killed during a thread's turn: the thread's ended comes once, made up when the host is gone", async () => {
    const { hub } = await api();
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    let pid = 0;
    try {
      const id = await detach(hub.home, ["sleep 6000"]);
      await waitFor("started", () => seen.some((e) => e.threadId === id && e.kind === "started"));
      const status = await cli(hub.home, ["host", "status", "--format", "json"]);
      pid = (JSON.parse(status.stdout) as { pid: number }).pid;
      process.kill(pid, "SIGKILL");
      await waitFor("the thread's end", () => seen.some((e) => e.threadId === id && e.kind === "ended"), 20_000);
      await sleep(500);
      assert.deepEqual(
        // its turn's start is heard only when this window was connected as it began
        seen.filter((e) => e.threadId === id && e.kind !== "turn_started").map((e) => e.kind),
        ["started", "ended"],
      );
    } finally {
      sub.dispose();
      // a host started while the killed one is not yet reaped takes its lock for live and leaves: the next test's
      // `run --detach` would wait for it in vain
      await waitFor("the killed host gone", () => !pid || !pidAlive(pid), 20_000);
    }
  });

  it("a question of a thread the host runs, its card here: announced once (the host's), answered once, naming this window", async () => {
    const { hub } = await api();
    const seen: ThreadEvent[] = [];
    const sub = (await api()).onThreadEvent((e) => seen.push(e));
    const out = join(workspaceRoot(), "asked-in-host.txt");
    try {
      const id = await detach(hub.home, ["--permission", "ask", `write ${out} from the host`]);
      await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const card = await waitFor("the question as the panel's card", () => hub.broker.pendingFor(id)[0]);
      assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
      await waitFor("the run's end", () => seen.some((e) => e.threadId === id && e.kind === "ended"), 30_000);
      await sleep(500); // anything doubled would come now
      const asked = seen.filter((e) => e.threadId === id && (e.kind === "needs_input" || e.kind === "answered"));
      assert.deepEqual(
        asked.map((e) => e.kind),
        ["needs_input", "answered"],
      );
      const [q, a] = asked;
      assert.ok(q?.kind === "needs_input" && a?.kind === "answered");
      assert.equal(a.requestId, q.question.requestId, "the host's request id, not the card's");
      assert.deepEqual([a.optionId, a.by], ["yes", hub.hosted.client]);
    } finally {
      sub.dispose();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(out, { force: true });
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

  it("the host's ended threads are remembered for their echoes, the last 1,000 of them, not every one", async () => {
    // a window open for weeks hears thousands of ends: the set that drops their echoes stays bounded
    const pushes = new vscode.EventEmitter<HostPush>();
    const quiet = new vscode.EventEmitter<never>();
    const link = { onPush: pushes.event, onDidSync: quiet.event, onDidLose: quiet.event, connected: false };
    const events = new HostedEvents({ link: link as unknown as HostLink, records: async () => [] });
    const heard: string[] = [];
    events.onEvent((e) => heard.push(`${e.kind} ${e.threadId}`));
    const at = new Date().toISOString();
    const push = (kind: "started" | "ended" | "turn_ended", threadId: string) =>
      pushes.fire({ t: "event", event: { kind, threadId, at } as never });
    try {
      for (let i = 0; i <= ENDED_REMEMBERED; i++) {
        push("started", `t${i}`);
        push("ended", `t${i}`);
      }
      heard.length = 0;
      push("turn_ended", `t${ENDED_REMEMBERED}`); // an echo of a thread that just ended: dropped
      push("turn_ended", "t1"); // the oldest remembered
      assert.deepEqual(heard, [], "the echoes of remembered ends are dropped");
      push("turn_ended", "t0"); // forgotten: 1,000 ends came after it
      assert.deepEqual(heard, ["turn_ended t0"], "the oldest end was forgotten");
    } finally {
      events.dispose();
      pushes.dispose();
      quiet.dispose();
    }
  });
});
