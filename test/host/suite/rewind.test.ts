// #23 items 3 and 5 in the real extension host: "Edit and resend" on a prompt rewinds the code, the conversation
// or both (acpThreads.rewindThread with the choice the panel's quick pick gives), and a user rename survives the
// agent's session_info titles.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { numberedMessages } from "../../../src/core/handoff/fork-cut";
import { restoreWhat } from "../../../src/vscode/ledger/review-commands";
import type { HostMessage, WirePart } from "../../../src/webview/thread/protocol";
import { api, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { sessionOf, type TestSession } from "./session-of";

const cfg = () => vscode.workspace.getConfiguration("acpThreads");

describe("Edit and resend = rewind (#23 item 3), the rename flag (#23 item 5)", () => {
  before(async () => {
    await useFakeAgent();
    await cfg().update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await cfg().update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("code only, conversation only, then code and conversation", async () => {
    const { hub } = await api();
    const a = join(workspaceRoot(), "rw23-a.txt");
    const b = join(workspaceRoot(), "rw23-b.txt");
    const s = await spawnIdleFake(`write ${a} one`);
    const turn = async (text: string) => {
      const done = s.events.filter((e) => e.type === "done").length;
      await s.prompt(text);
      await waitFor(`"${text}" to end`, () => s.events.filter((e) => e.type === "done").length > done);
    };
    await waitFor("turn 1", () => s.events.some((e) => e.type === "done"));
    await turn(`write ${a} two`);
    await turn(`write ${b} bee`);
    await turn("hello");
    await waitFor("the ledger's turn 3", () => hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === "turn-3"));
    const texts = (id: string) => numberedMessages(hub.threads.read(id).records).map((m) => m.text);
    // the window queues a session's records for the thread pool: the last turn's answer may not be in the file yet
    // (CI, stop 58, VS Code 1.96: one message short)
    await hub.live.get(s.threadId)?.flushed();
    const source = texts(s.threadId);
    assert.equal(source.length, 8);
    const rewind = (n: number, opts: object) =>
      vscode.commands.executeCommand<string | undefined>("acpThreads.rewindThread", s.threadId, n, source[n - 1], {
        yes: true,
        ...opts,
      });

    // code only: the files go back to before prompt 5, the conversation stays
    assert.equal(await rewind(5, { mode: "code" }), undefined);
    await waitFor("b.txt restored away", () => !existsSync(b));
    assert.equal(readFileSync(a, "utf8"), "two");
    assert.deepEqual(texts(s.threadId), source);

    // conversation only: a fork before prompt 3 sends the edited prompt; the files stay
    const conv = await rewind(3, { mode: "conversation", prompt: "say it another way" });
    assert.ok(conv);
    const fs = await sessionOf(hub, conv, "the fork's session");
    await waitFor("the fork's turn", () => fs.events.some((e) => e.type === "done"));
    await waitFor("the fork's prompt recorded", () => texts(conv).length === 4);
    assert.deepEqual(texts(conv).slice(0, 3), [source[0], source[1], "say it another way"]);
    assert.deepEqual(hub.threads.readMetadata(conv).origin, { kind: "fork", source: s.threadId, messageIndex: 2 });
    // both panels' ops strips link the two threads (the fork names the message it was made after)
    const links = async (id: string) => (await hub.ops.view(id)).links.map((l) => [l.relation, l.threadId, l.at]);
    await waitFor("the source's strip lists the fork", async () =>
      (await links(s.threadId)).some((l) => l[1] === conv),
    );
    assert.deepEqual(await links(s.threadId), [["fork", conv, undefined]]);
    assert.deepEqual(await links(conv), [["forkedFrom", s.threadId, 2]]);
    assert.equal(readFileSync(a, "utf8"), "two");

    // code and conversation: a.txt back to "one", and a second fork
    const both = await rewind(3, { mode: "both", prompt: "once more" });
    assert.ok(both && both !== conv);
    await waitFor("a.txt restored", () => readFileSync(a, "utf8") === "one");
    await waitFor("the second fork's prompt", () => texts(both).length >= 3 && texts(both)[2] === "once more");
    assert.deepEqual(hub.threads.readMetadata(s.threadId).forks, [conv, both]);
    // the restore is undoable like any restore
    const last = hub.ledger.ledger
      .read(s.threadId)
      .ops.filter((o) => o.type === "restore")
      .at(-1)!;
    await vscode.commands.executeCommand("acpThreads.restoreTurn", s.threadId, { op: last.op }, { yes: true });
    await waitFor("a.txt back to two", () => readFileSync(a, "utf8") === "two");
    await hub.live.get(conv)?.close();
    await hub.live.get(both)?.close();
    await s.close();
  });

  it("Edit and resend from the prompt box: the fork sends the edited text with its chips; Code only gives it back (#37)", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "rw37-chip.txt");
    writeFileSync(file, "chip content\n");
    const s = await spawnIdleFake("hello");
    await waitFor("turn 1", () => s.events.some((e) => e.type === "done"));
    await s.prompt("second prompt");
    await waitFor("turn 2", () => s.events.filter((e) => e.type === "done").length === 2);
    const source = numberedMessages(hub.threads.read(s.threadId).records).map((m) => m.text);
    assert.equal(source[2], "second prompt");
    const posts: HostMessage[] = [];
    const panel = { threadId: s.threadId, post: (m: HostMessage) => void posts.push(m) };
    const ref = { kind: "file" as const, label: "rw37-chip.txt", uri: `file://${file}`, path: file };
    const parts: WirePart[] = [
      { type: "text", text: "say it with " },
      { type: "context", ref },
      { type: "text", text: "\non two lines" },
    ];

    // Code only, nothing to restore: no fork, the edited prompt comes back into the box as a plain prompt
    await hub.composer.handle(panel, {
      type: "send",
      parts,
      rewind: { message: 3, text: source[2], mode: "code" },
    });
    assert.deepEqual(posts.at(-1), { type: "editPrompt", parts });
    assert.deepEqual(hub.threads.readMetadata(s.threadId).forks ?? [], []);

    // Conversation only: the fork's panel resumes it and sends the edited text, the chip delivered as context
    await hub.composer.handle(panel, {
      type: "send",
      parts,
      rewind: { message: 3, text: source[2], mode: "conversation" },
    });
    const fork = await waitFor("the fork", () => hub.threads.readMetadata(s.threadId).forks?.[0]);
    assert.ok(hub.panels.get(fork), "the fork's panel is open");
    const fs = await sessionOf(hub, fork, "the fork's session");
    const sent = await waitFor("the edited prompt in the fork", () =>
      fs.events.find((e) => e.type === "user_text" && e.text.startsWith("say it with")),
    );
    assert.ok(sent.type === "user_text");
    assert.equal(sent.text, "say it with @rw37-chip.txt\non two lines");
    assert.deepEqual(
      sent.context?.map((c) => [c.kind, c.path]),
      [["file", file]],
      "the chip went with the edited prompt",
    );
    await waitFor("the fork's turn", () => fs.events.some((e) => e.type === "done"));
    const texts = numberedMessages(hub.threads.read(fork).records).map((m) => m.text);
    assert.deepEqual(texts.slice(0, 2), source.slice(0, 2));
    assert.equal(posts.filter((m) => m.type === "editPrompt").length, 1, "nothing given back after a fork");
    await fs.close();
    await s.close();
  });

  it("a rename is kept when the agent names the thread later, and after a reload", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake("hello");
    await waitFor("turn 1", () => s.events.some((e) => e.type === "done"));
    // the running thread's Rename (its Sessions row's; the panel's title edit writes the same way: hub rename),
    // to the thread host when it holds the thread
    await vscode.commands.executeCommand("acpThreads.rename", { type: "live", threadId: s.threadId }, "My own name");
    const done = s.events.filter((e) => e.type === "done").length;
    await s.prompt("title The agent's name");
    await waitFor("the titling turn", () => s.events.filter((e) => e.type === "done").length > done);
    assert.equal(s.title, "My own name");
    assert.equal(hub.panels.shown(s.threadId)?.title, "My own name");
    const meta = hub.threads.readMetadata(s.threadId);
    assert.deepEqual([meta.title, meta.titleByUser], ["My own name", true]);
    await s.close();
    // resumed with a prompt (in the window, or continued in the thread host): the flag still holds
    const turns = () => hub.threads.read(s.threadId).records.filter((r) => r.kind === "turn_end").length;
    const before = turns();
    await vscode.commands.executeCommand("acpThreads.resume", s.threadId, "title Another agent name");
    await waitFor("the titling turn", () => turns() > before);
    const again = await sessionOf(hub, s.threadId, "the resumed session");
    assert.equal(again.lastPrompt, "title Another agent name");
    assert.equal(again.title, "My own name");
    assert.equal(hub.threads.readMetadata(s.threadId).title, "My own name");
    await again.close();
  });

  it("deleting a thread can delete its agent's session too (session/delete); the thread is trashed either way", async () => {
    const { hub } = await api();
    const pidfile = join(workspaceRoot(), ".rw23-agent.pid");
    const agents = cfg().get<Record<string, { env?: Record<string, string> }>>("agents") ?? {};
    const fake = agents.fake!;
    await cfg().update(
      "agents",
      {
        ...agents,
        "fake-del": {
          ...fake,
          displayName: "Fake agent (delete)",
          env: { ...fake.env, FAKE_AGENT_DELETE: "1", FAKE_AGENT_PIDFILE: pidfile },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    const pastOf = async (id: string) => {
      const loaded = await hub.past.load(id);
      const { events: _events, ...thread } = loaded!;
      return { type: "past" as const, thread };
    };
    const s = await spawnIdleFake("hello", "fake-del");
    await waitFor("turn 1", () => s.events.some((e) => e.type === "done"));
    const sessionId = s.sessionId;
    await s.close();
    await vscode.commands.executeCommand("acpThreads.delete", await pastOf(s.threadId), { agentSession: true });
    assert.equal(readFileSync(`${pidfile}.delete`, "utf8"), sessionId);
    assert.equal(hub.threads.exists(s.threadId), false);
    // an agent without session/delete: the thread is trashed all the same
    const t = await spawnIdleFake("hello");
    await waitFor("turn 1", () => t.events.some((e) => e.type === "done"));
    await t.close();
    await vscode.commands.executeCommand("acpThreads.delete", await pastOf(t.threadId), { agentSession: true });
    assert.equal(hub.threads.exists(t.threadId), false);
    await cfg().update("agents", agents, vscode.ConfigurationTarget.Global);
    for (const f of [pidfile, `${pidfile}.delete`]) rmSync(f, { force: true });
  });

  it("a rewound or forked thread keeps its title when its agent names the session; restores say which turn (#37)", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake("title mock title");
    await waitFor("the agent's title", () => s.title === "mock title");
    const done = s.events.filter((e) => e.type === "done").length;
    await s.prompt("hello again");
    await waitFor("turn 2", () => s.events.filter((e) => e.type === "done").length > done);
    /** A turn of `x`; the first prompt of a fork carries its history (seeded), so the agent titles on the next. */
    const turnOf = async (x: TestSession, text: string) => {
      const n = x.events.filter((e) => e.type === "done").length;
      await x.prompt(text);
      await waitFor(`"${text}" to end`, () => x.events.filter((e) => e.type === "done").length > n);
    };
    // Edit and resend message 3 ("hello again"): the fork's agent names its session like the source's
    const rewound = await vscode.commands.executeCommand<string>(
      "acpThreads.rewindThread",
      s.threadId,
      3,
      "hello again",
      {
        mode: "conversation",
        prompt: "once more",
      },
    );
    const r = await sessionOf(hub, rewound, "the rewound thread's session");
    await waitFor("the edited prompt's answer", () =>
      r.events.some((e) => e.type === "text" && /echo: .*once more/s.test(e.text)),
    );
    await waitFor("idle", () => r.status === "idle");
    await turnOf(r, "title mock title");
    assert.equal(r.title, "mock title (rewound to message 3)");
    assert.equal(hub.threads.readMetadata(rewound).title, "mock title (rewound to message 3)");
    assert.deepEqual(hub.threads.readMetadata(rewound).origin, { kind: "fork", source: s.threadId, messageIndex: 2 });
    // Fork from here: the same
    const forked = await vscode.commands.executeCommand<string>("acpThreads.forkThread", s.threadId, 2, "titled");
    const fork = await sessionOf(hub, forked, "the fork's session");
    const f = await waitFor("the fork's session", () => (fork.status === "idle" ? fork : undefined));
    await turnOf(f, "carry on");
    await turnOf(f, "title mock title");
    assert.equal(f.title, "Fork of mock title at message 2");
    assert.equal(hub.threads.readMetadata(forked).title, "Fork of mock title at message 2");
    // a restore to a turn operation (what Rewind's code restore targets) names that turn, not "the restore"
    assert.equal(restoreWhat({ type: "turn", turn: 3 }), "before turn 3");
    assert.equal(restoreWhat({ type: "restore" }), "before the restore");
    await r.close();
    await f.close();
    await s.close();
  });
});
