// Issue 13 in the editor against the stdio fake agent: the watchdog's alerts in the panel's ops strip and the
// sessions tree with the retry ladder offered (and climbed by itself by setting), "Hand off to another agent"
// with the two threads linked both ways, and a thread held by another process (the CLI) opened read-only with
// its holder named, then taken over when that process exits.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import * as vscode from "vscode";
import type { LiveSession } from "../../../src/vscode/live-session";
import { sessionOf, type TestSession } from "./session-of";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { ThreadStore } from "../../../src/core/store/thread-store";
import type { HostMessage } from "../../../src/webview/thread/protocol";
import {
  api,
  hoveredRow,
  newPastThread,
  repoRoot,
  spawnIdleFake,
  useFakeAgent,
  waitFor,
  workspaceRoot,
  writePastThread,
} from "./helpers";

const cfg = () => vscode.workspace.getConfiguration("acpThreads");
const agentText = (s: TestSession, from = 0) =>
  s.events
    .slice(from)
    .map((e) => (e.type === "text" && e.stream === "output" ? e.text : ""))
    .join("");

/** The tree item of a live session or of a stored thread (live or past), as the Sessions view draws it. */
async function treeItem(s: TestSession | string): Promise<vscode.TreeItem> {
  const { hub } = await api();
  const groups = await hub.tree.getChildren();
  const all = groups.flatMap((g) => (g.type === "group" ? g.children : [g]));
  const node = all.find((n: SessionNode) =>
    typeof s === "string"
      ? (n.type === "past" && n.thread.threadId === s) || (n.type === "live" && n.threadId === s)
      : n.type === "live" && n.threadId === s.threadId,
  );
  assert.ok(node, "the thread is in the tree");
  return hoveredRow(node);
}

describe("watchdog, handoff and read-only threads in the editor (#13)", () => {
  before(useFakeAgent);
  afterEach(async () => {
    await cfg().update("watchdog.stallSeconds", undefined, vscode.ConfigurationTarget.Global);
    await cfg().update("watchdog.retry", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("a stalled tool call is shown in the panel and the tree; the offered Cancel ends the turn", async () => {
    const { hub } = await api();
    await cfg().update("watchdog.stallSeconds", 1, vscode.ConfigurationTarget.Global);
    const s = await spawnIdleFake();
    const ended = new Promise<void>((r) => s.onTurnDone(() => r()));
    void s.prompt("tool");
    const view = await waitFor("a stall alert", async () => {
      const v = await hub.ops.view(s.threadId);
      return v.alert ? v : undefined;
    });
    assert.equal(view.alert?.kind, "stalled");
    assert.match(view.alert!.message, /long job/, "names the tool call still in progress");
    assert.equal(view.next, "cancel", "the ladder offers its first rung");
    assert.equal(view.auto, false);
    const item = await treeItem(s);
    assert.equal(item.contextValue, "live-alert", "the tree item offers Retry");
    assert.match(String(item.description), /^Stalled/);
    await vscode.commands.executeCommand("acpThreads.retry", s.threadId);
    await ended;
    const after = await hub.ops.view(s.threadId);
    assert.deepEqual(
      after.history.map((h) => h.step),
      ["cancel"],
    );
    await s.close();
  });

  it("with watchdog.retry = auto the ladder climbs by itself: cancel, then re-prompt continue", async () => {
    const { hub } = await api();
    await cfg().update("watchdog.stallSeconds", 1, vscode.ConfigurationTarget.Global);
    await cfg().update("watchdog.retry", "auto", vscode.ConfigurationTarget.Global);
    const s = await spawnIdleFake();
    const before = s.events.length;
    void s.prompt("tool");
    await waitFor("the re-prompt's answer", () => /echo: continue/.test(agentText(s, before)) && s.status === "idle");
    assert.equal((await hub.ops.view(s.threadId)).auto, true);
    await s.close();
  });

  it("an agent that dies mid-turn is reported; Restart brings it back on the same thread", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake();
    void s.prompt("die");
    // the alert can come a moment before the dead turn has ended in the session (then the ladder would still
    // offer cancel): wait for both, then the next rung must be restart
    const view = await waitFor("a death alert", async () => {
      const v = await hub.ops.view(s.threadId);
      return v.alert?.kind === "died" && !v.running && !s.busy ? v : undefined;
    });
    assert.match(view.alert!.detail ?? view.alert!.message, /bye from stderr|exit/);
    assert.equal(view.next, "restart");
    assert.equal((await treeItem(s)).contextValue, "live-alert");
    const before = s.events.length;
    await hub.ops.handle(s.threadId, { type: "ops", action: "retry", step: "restart" });
    await waitFor("the resumed agent to answer continue", () => /echo: continue/.test(agentText(s, before)));
    await waitFor("the session idle again", () => s.status === "idle");
    assert.equal(await sessionOf(hub, s.threadId), s, "the same session, on the same thread");
    assert.equal((await hub.ops.view(s.threadId)).alert, null, "a healthy turn clears the alert");
    await s.close();
  });

  it("hands a thread off: the edited brief is sent and the two threads link to each other", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake("stream 2");
    const fromId = s.threadId;
    await s.close();
    const started = vscode.commands.executeCommand<LiveSession | undefined>("acpThreads.handoff", fromId, {
      agentId: "fake",
    });
    // the brief opens as a markdown document to edit; its Send (title bar / CodeLens) sends what it says then.
    // The notification only points at the brief and leaves with it: no dead Send in the notification centre (#37)
    const doc = await waitFor("the brief in an editor", () =>
      vscode.workspace.textDocuments.find((d) => d.isUntitled && d.getText().startsWith("You are taking over")),
    );
    assert.match(doc.getText(), /stream 2/, "the brief carries the goal");
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), "EDITED BY THE USER\n");
    await vscode.workspace.applyEdit(edit);
    assert.equal(await vscode.commands.executeCommand("acpThreads.sendHandoff", doc.uri.toString()), true);
    const to = await started;
    assert.ok(to, "a new session was started");
    await waitFor("the handoff turn", () => to.status === "idle" && to.thread);
    assert.match(agentText(to), /echo: EDITED BY THE USER/, "the edited brief is what the agent got");
    const toId = to.threadId;
    // the closed origin's links are read from the thread catalog, which takes the link's write in from the store's
    // events a moment later: waited for (read once, it failed a loaded CI rehearsal with [])
    const links = async () => (await hub.ops.view(fromId)).links.map((l) => [l.relation, l.threadId]);
    await waitFor("the origin's link in the thread catalog", async () => (await links()).length > 0).catch(
      () => undefined,
    );
    assert.deepEqual(await links(), [["to", to.threadId]], "the origin panel links to the live successor");
    assert.deepEqual(
      (await hub.ops.view(to.threadId)).links.map((l) => [l.relation, l.threadId]),
      [["from", fromId]],
    );
    assert.deepEqual(hub.threads.read(fromId).metadata.handedOffTo, [toId]);
    assert.match(String((await treeItem(to)).description), /continues a handoff/, "the live successor in the tree");
    await to.close();
    const past = (await hub.past.list({ cwds: [] })).find((t) => t.threadId === fromId);
    assert.deepEqual(past?.handoff, { from: undefined, to: [toId] });
    const origin = await treeItem(fromId);
    assert.match(String(origin.description), /handed off/, "the origin in the tree");
    assert.match((origin.tooltip as vscode.MarkdownString).value, new RegExp(`handed off to thread \`${toId}\``));
  });

  it("a thread the CLI writes opens read-only naming it, and is taken over when the CLI exits", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake("stream 1");
    const storeId = s.threadId;
    await s.close();
    const cli: ChildProcess = spawn(
      process.execPath,
      [join(repoRoot(), "dist/cli.js"), "run", "--thread", storeId, "sleep 4000"],
      {
        cwd: workspaceRoot(),
        env: { ...process.env, ACP_THREADS_HOME: hub.home, ELECTRON_RUN_AS_NODE: "1" },
        stdio: "ignore",
      },
    );
    const exited = new Promise<number | null>((r) => cli.on("exit", (code) => r(code)));
    try {
      await waitFor("the CLI to hold the thread", () => hub.ops.heldElsewhere(storeId), 20_000);
      await vscode.commands.executeCommand("acpThreads.openThread", storeId);
      const view = await waitFor("the holder in the panel", async () => (await hub.ops.view(storeId)).holder);
      assert.equal(view.label, "acp-threads run");
      assert.equal(view.pid, cli.pid);
      assert.equal(view.host, null, "same machine");
      const before = hub.live.all().length;
      await vscode.commands.executeCommand("acpThreads.resume", storeId);
      assert.equal(hub.live.all().length, before, "no second writer while the CLI holds it");
      assert.equal(await exited, 0, "the CLI's turn ended normally");
      const taken = await waitFor(
        "this window to take the thread over",
        () => hub.live.all().find((x) => x.threadId === storeId && x.isOpen && x.status === "idle"),
        20_000,
      );
      assert.equal(taken.title, "stream 1", "it keeps the thread's title");
      assert.ok(
        taken.events.some((e) => e.type === "text" && e.text.includes("sleeping")),
        "the CLI's turn is in the history",
      );
      const n = taken.events.length;
      const done = new Promise<void>((r) => taken.onTurnDone(() => r()));
      await taken.prompt("after the takeover");
      await done;
      assert.match(agentText(taken, n), /echo: after the takeover/);
      await taken.close();
    } finally {
      if (cli.exitCode === null) cli.kill("SIGTERM");
    }
  });

  it("a panel of a stored thread streams each writer's records (threads.follow), offers Take over when it lets go", async () => {
    const { hub } = await api();
    const h = newPastThread(hub.home, "followed in a panel"); // its writer holds it until closed
    const posts: HostMessage[] = [];
    const attached = hub.ops.attach(h.threadId, (m) => void posts.push(m));
    const answers = () =>
      posts.flatMap((m) => (m.type === "events" ? m.events : [])).flatMap((e) => (e.type === "text" ? [e.text] : []));
    const answer = (text: string) => h.append({ kind: "agent_message", messageId: text, text });
    try {
      await waitFor("the writer in the ops strip", async () => (await hub.ops.view(h.threadId)).holder);
      for (const text of ["one", "two", "three"]) answer(text);
      await waitFor("the writer's records in the panel", () => answers().length === 3);
      h.close();
      await waitFor("Take over offered", async () => (await hub.ops.view(h.threadId)).canTakeOver);
      assert.equal((await hub.ops.view(h.threadId)).holder, null);
      // another writer takes it later: followed again, from where the last follow ended
      const next = new ThreadStore(hub.home).open(h.threadId);
      try {
        await waitFor("the next writer in the ops strip", async () => (await hub.ops.view(h.threadId)).holder);
        assert.equal((await hub.ops.view(h.threadId)).canTakeOver, false, "held again: no Take over");
        next.append({ kind: "agent_message", messageId: "four", text: "four" });
        await waitFor("the next writer's record in the panel", () => answers().length === 4);
      } finally {
        next.close();
      }
      await waitFor("Take over offered again", async () => (await hub.ops.view(h.threadId)).canTakeOver);
      assert.deepEqual(answers(), ["one", "two", "three", "four"], "each record once, in order");
    } finally {
      attached.dispose();
      h.close();
    }
  });

  it("a stored thread's ops strip is worked out off the host's thread; deleted meanwhile, it ends as not stored (#35)", async () => {
    const { hub } = await api();
    const id = writePastThread(hub.home, 1);
    const posts: HostMessage[] = [];
    const attached = hub.ops.attach(id, (m) => void posts.push(m));
    const strips = () => posts.flatMap((m) => (m.type === "ops" ? [m.ops] : []));
    try {
      await waitFor("the strip of the stored thread", () => strips().some((o) => o.stored));
      // views asked before the delete may come back after those asked after it: the newest asked is the one left
      for (let i = 0; i < 5; i++) hub.ops.refresh(id);
      hub.threads.delete(id);
      for (let i = 0; i < 5; i++) hub.ops.refresh(id);
      const last = await waitFor("the strip without the deleted thread", () => {
        const o = strips().at(-1);
        return o && !o.stored ? o : undefined;
      });
      assert.deepEqual(last.links, [], "no links of a thread that is gone");
      assert.equal((await hub.ops.view(id)).stored, false);
    } finally {
      attached.dispose();
    }
  });

  it("acp-threads run --thread ID --steer TEXT reaches a thread the editor holds (#35: it timed out)", async () => {
    const { hub } = await api();
    const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
    const agents = { ...(cfg().get<Record<string, unknown>>("agents") ?? {}) };
    agents["fake-steer"] = {
      command: process.execPath,
      args: [fake],
      env: { ELECTRON_RUN_AS_NODE: "1", FAKE_AGENT_STEERING: "1" },
      displayName: "Fake steer",
    };
    await cfg().update("agents", agents, vscode.ConfigurationTarget.Global);
    const s = await spawnIdleFake("", "fake-steer");
    const ended = new Promise<void>((r) => s.onTurnDone(() => r()));
    void s.prompt("sleep 60000");
    await waitFor("the agent to be inside its turn", () => /sleeping/.test(agentText(s)));
    const cli = spawn(
      process.execPath,
      [join(repoRoot(), "dist/cli.js"), "run", "--thread", s.threadId, "--steer", "from the terminal"],
      {
        cwd: workspaceRoot(),
        env: { ...process.env, ACP_THREADS_HOME: hub.home, ELECTRON_RUN_AS_NODE: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    cli.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => cli.on("exit", (c) => r(c)));
    assert.equal(code, 0, stderr);
    assert.match(stderr, /steered into the running turn/);
    await ended;
    const steered = s.events.find((e) => e.type === "user_text" && e.steered);
    assert.equal(steered?.type === "user_text" ? steered.text : "", "from the terminal");
    assert.match(agentText(s), /steered: from the terminal/);
    await s.close();
  });
});
