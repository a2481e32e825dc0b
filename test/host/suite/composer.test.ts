// The prompt box's host side in the real extension host: `@` suggestions from every source (VS Code's file
// search, open editors, the selection, diagnostics, a workspace symbol provider, past threads), prompts with
// context delivered to the stdio fake agent as ACP blocks chosen by its promptCapabilities, follow-ups queued
// while a turn runs, the new-thread panel (agent picker → session), and the context-menu commands.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ContextItem } from "../../../src/core/model/context";
import { THREAD_URI_PREFIX, threadRef } from "../../../src/core/prompt/refs";
import type { RuntimeEvent } from "../../../src/core/model/events";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { CompletionItem, HostMessage, WirePart } from "../../../src/webview/thread/protocol";
import { api, fakeAgent, greetSelection, waitFor, workspaceRoot, writePastThread } from "./helpers";
import { sessionOf, type TestSession } from "./session-of";

/** A prompt box with no webview: records what the host posts to it. */
function fakePanel(threadId: string): ComposerPanel & { posts: HostMessage[] } {
  const posts: HostMessage[] = [];
  return { threadId, posts, post: (m) => void posts.push(m) };
}

async function suggest(panel: ReturnType<typeof fakePanel>, query: string): Promise<CompletionItem[]> {
  const { hub } = await api();
  const seq = Math.floor(Math.random() * 1e9);
  await hub.composer.handle(panel, { type: "complete", seq, trigger: "@", query });
  const last = panel.posts.filter((m) => m.type === "completions" && m.seq === seq).pop();
  assert.ok(last?.type === "completions" && last.done, "the last phase is marked done");
  return last.items;
}

const agentText = (events: RuntimeEvent[]) =>
  events.map((e) => (e.type === "text" && e.stream === "output" ? e.text : "")).join("");

async function session(agentId: string): Promise<TestSession> {
  const { hub } = await api();
  const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId,
    task: "",
    mode: "session",
    cwd: workspaceRoot(),
  });
  const s = await sessionOf(hub, id);
  await waitFor("the session to be ready", () => s.status === "idle");
  return s;
}

async function send(s: TestSession, panel: ReturnType<typeof fakePanel>, parts: WirePart[]): Promise<string> {
  const { hub } = await api();
  const before = s.events.length;
  const done = new Promise<void>((r) => s.onTurnDone(() => r()));
  await hub.composer.handle(panel, { type: "send", parts });
  await done;
  return agentText(s.events.slice(before));
}

describe("prompt box: @ suggestions", () => {
  it("offers workspace files and folders from VS Code's file search, fuzzy matched", async () => {
    const { hub } = await api();
    const panel = fakePanel("suggest-files");
    const items = await suggest(panel, "grjs");
    const file = items.find((i) => i.group === "files" && i.ref?.path === greet());
    assert.ok(file, `greet.js offered: ${JSON.stringify(items.map((i) => i.label))}`);
    assert.equal(file.label, "greet.js");
    assert.equal(file.detail, "src");
    assert.ok(hub.composer.files.ready && hub.composer.files.lastBuild!.files >= 2);
    const folder = (await suggest(panel, "src")).find((i) => i.group === "files" && i.ref?.kind === "folder");
    assert.equal(folder?.label, "src/");
    // the watcher keeps the listing current
    writeFileSync(join(workspaceRoot(), "src", "fresh-module.js"), "export {};\n");
    await waitFor("the new file to be offered", async () =>
      (await suggest(panel, "freshmod")).some((i) => i.label === "fresh-module.js"),
    );
  });

  it("offers the editor selection (kept after focus moves), open editors and diagnostics", async () => {
    const doc = await vscode.workspace.openTextDocument(greet());
    const ed = await vscode.window.showTextDocument(doc);
    ed.selection = new vscode.Selection(1, 0, 2, 1);
    await waitFor("the selection event", () => !ed.selection.isEmpty);
    const diags = vscode.languages.createDiagnosticCollection("composer-test");
    const diag = new vscode.Diagnostic(new vscode.Range(1, 2, 1, 8), "greeting is too plain", 0);
    diag.source = "composer-test";
    diags.set(doc.uri, [diag]);
    try {
      await vscode.commands.executeCommand("workbench.action.focusPanel"); // focus leaves the editor
      const items = await suggest(fakePanel("suggest-editor"), "");
      const sel = items.find((i) => i.group === "selection");
      assert.equal(sel?.label, "greet.js:2-3");
      assert.equal(sel?.content, '  return "hello " + name;\n}\n');
      assert.ok(
        items.some((i) => i.group === "editors" && i.ref?.path === greet()),
        "greet.js is an open editor",
      );
      const problems = items.find((i) => i.group === "problems" && i.ref?.kind === "problems");
      // other suites may leave problems behind: ours is one of them
      assert.match(problems?.label ?? "", /^Problems \(\d+ errors?, \d+ warnings?\)$/);
      assert.match(problems?.content ?? "", /src\/greet\.js:2:3 error composer-test: greeting is too plain/);
      const one = (await suggest(fakePanel("suggest-diag"), "plain")).find((i) => i.ref?.kind === "diagnostic");
      assert.equal(one?.label, "greet.js:2 error");
    } finally {
      diags.dispose();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });

  it("offers workspace symbols from the symbol providers and past threads from the index", async () => {
    const provider = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: (q) =>
        /g.*e.*v/i.test(q) && "greeteveryone".includes(q.toLowerCase())
          ? [
              new vscode.SymbolInformation(
                "greetEveryone",
                vscode.SymbolKind.Function,
                "",
                new vscode.Location(vscode.Uri.file(greet()), new vscode.Range(0, 0, 2, 1)),
              ),
            ]
          : [],
    });
    try {
      const { hub } = await api();
      const threadId = writePastThread(hub.home, 1);
      // the symbol providers answer together: a cold language server can make ours late, so ask until it shows
      const items = await waitFor("the symbol", async () => {
        const found = await suggest(fakePanel("suggest-symbols"), "greetEv");
        return found.some((i) => i.group === "symbols") ? found : undefined;
      });
      const sym = items.find((i) => i.group === "symbols");
      assert.equal(sym?.label, "greetEveryone");
      assert.deepEqual(sym?.ref?.range, { start: 1, end: 3 });
      const threads = await suggest(fakePanel("suggest-threads"), "past thread");
      assert.ok(
        threads.some((i) => i.group === "threads" && i.ref?.threadId === threadId),
        "the past thread",
      );
    } finally {
      provider.dispose();
    }
  });

  it("a newer @ query of a panel cancels its recall search before it; another panel's goes on", async () => {
    const { hub } = await api();
    const saved = hub.composer.links;
    assert.ok(saved, "the extension connected its links");
    const asked: { query: string; signal: AbortSignal | undefined }[] = [];
    // recall as slow as a big index: each search answers only once cancelled, but the last one at once
    hub.composer.connect({
      ...saved,
      recall: (query, signal) => {
        asked.push({ query, signal });
        if (query.endsWith("last")) return Promise.resolve([]);
        return new Promise((resolve) => signal?.addEventListener("abort", () => resolve([])));
      },
    });
    const panel = fakePanel("recall-cancel");
    const other = fakePanel("recall-other");
    try {
      const first = hub.composer.handle(panel, { type: "complete", seq: 1, trigger: "@", query: "slow search" });
      const elsewhere = hub.composer.handle(other, { type: "complete", seq: 1, trigger: "@", query: "other panel" });
      await waitFor("both searches asked", () => asked.length === 2);
      await hub.composer.handle(panel, { type: "complete", seq: 2, trigger: "@", query: "the last" });
      await first; // it answers once cancelled
      // the two panels' searches start in either order (each panel's earlier phases await files and symbols first)
      const [slow, otherPanel, last] = ["slow search", "other panel", "the last"].map((q) =>
        asked.find((a) => a.query === q),
      );
      assert.deepEqual(
        [slow?.query, slow?.signal?.aborted, otherPanel?.signal?.aborted, last?.signal?.aborted],
        ["slow search", true, false, false],
      );
      assert.ok(
        panel.posts.some((m) => m.type === "completions" && m.seq === 2 && m.done),
        "the newer query answered",
      );
      // the other panel's search is cancelled only by its own next query
      await hub.composer.handle(other, { type: "complete", seq: 2, trigger: "@", query: "x" });
      await elsewhere;
      assert.equal(otherPanel?.signal?.aborted, true);
    } finally {
      hub.composer.connect(saved);
    }
  });
});

describe("prompt box: sending context", () => {
  before(async () => {
    await fakeAgent("ctx-embed", { FAKE_AGENT_PROMPT_CAPS: "image,embeddedContext", FAKE_AGENT_COMMANDS: "1" });
    await fakeAgent("ctx-links", {});
    await fakeAgent("ctx-steer", { FAKE_AGENT_STEERING: "1" });
  });

  it("embeds the unsaved buffer and the selection for an agent with embeddedContext; records the chips", async () => {
    const { hub } = await api();
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(greet()));
    await ed.edit((e) => e.insert(new vscode.Position(0, 0), "// UNSAVED-EDIT\n"));
    const s = await session("ctx-embed");
    const panel = fakePanel(s.threadId);
    hub.composer.attach(panel);
    await waitFor("the slash commands of the agent", () =>
      panel.posts.some((m) => m.type === "composer" && m.state.commands?.some((c) => c.name === "review")),
    );
    const state = panel.posts.filter((m) => m.type === "composer").pop();
    assert.ok(state?.type === "composer" && state.state.caps?.embeddedContext, "caps reach the prompt box");
    const file = (await suggest(panel, "greet")).find((i) => i.group === "files")!;
    const answer = await send(s, panel, [
      { type: "text", text: "context about " },
      { type: "context", ref: file.ref! },
      { type: "text", text: " and " },
      greetSelection(),
    ]);
    assert.match(answer, new RegExp(`resource file://${greet()} "// UNSAVED-EDIT"`));
    assert.match(answer, new RegExp(`resource file://${greet()}#L3:3 "SELECTED-LINE"`));
    const user = s.events.find((e) => e.type === "user_text");
    assert.ok(user?.type === "user_text");
    assert.equal(user.text, "context about @greet.js and @greet.js:3");
    assert.deepEqual(
      user.context?.map((c) => [c.kind, c.sent]),
      [
        ["file", "embedded"],
        ["selection", "embedded"],
      ],
    );
    const stored = hub.threads.read(s.threadId).records.find((r) => r.kind === "user_message");
    assert.deepEqual((stored as { context?: unknown[] }).context?.length, 2, "the chips are in the thread file");
    await s.close();
    await vscode.window.showTextDocument(ed.document);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("sends resource_links to an agent without embeddedContext and refuses images it cannot take", async () => {
    const { hub } = await api();
    const s = await session("ctx-links");
    const panel = fakePanel(s.threadId);
    const answer = await send(s, panel, [
      { type: "text", text: "context " },
      { type: "context", ref: { kind: "file", label: "greet.js", uri: `file://${greet()}`, path: greet() } },
    ]);
    assert.match(answer, new RegExp(`link file://${greet()} greet.js`));
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString("base64");
    const parts: WirePart[] = [
      { type: "text", text: "context look" },
      { type: "image", name: "shot.png", data: png },
    ];
    const before = s.events.length;
    await hub.composer.handle(panel, { type: "send", parts });
    const notice = panel.posts.find((m) => m.type === "composerNotice");
    assert.match(notice?.type === "composerNotice" ? notice.message : "", /ctx-links does not accept images/);
    assert.deepEqual(panel.posts.filter((m) => m.type === "editPrompt").pop(), { type: "editPrompt", parts });
    assert.equal(s.events.length, before, "nothing was sent or recorded");
    await s.close();
  });

  it("keeps images beside the thread and sends them as image blocks when the agent takes images", async () => {
    const { hub } = await api();
    const s = await session("ctx-embed");
    const panel = fakePanel(s.threadId);
    const attached = hub.composer.attach(panel);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString("base64");
    const answer = await send(s, panel, [
      { type: "text", text: "context see" },
      { type: "image", name: "shot.png", data: png },
    ]);
    assert.match(answer, /image image\/png 12 bytes/);
    const user = s.events.find((e) => e.type === "user_text");
    const img = user?.type === "user_text" ? user.context?.[0] : undefined;
    assert.match(img?.asset ?? "", /^[0-9a-f]{24}\.png$/);
    const line = JSON.stringify(hub.threads.read(s.threadId).records.find((r) => r.kind === "user_message"));
    assert.ok(!line.includes(png), "no base64 in the JSONL line");
    const thumbs = await waitFor("the thumbnail (read off the host's thread)", () =>
      panel.posts.find((m) => m.type === "thumbs"),
    );
    assert.deepEqual(thumbs, { type: "thumbs", thumbs: { [img!.asset!]: `data:image/png;base64,${png}` } });
    attached.dispose();
    await s.close();
  });

  it("queues follow-ups typed while a turn runs and sends them in order when it ends", async () => {
    const { hub } = await api();
    const s = await session("ctx-links");
    const panel = fakePanel(s.threadId);
    const turns: string[] = [];
    s.onEvents((evs) => evs.forEach((e) => e.type === "user_text" && turns.push(e.text)));
    await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "sleep 1500" }] });
    await waitFor("the turn to run", () => s.status === "working");
    await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "first follow-up" }] });
    await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "dropped follow-up" }] });
    await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "second follow-up" }] });
    const queued = hub.composer.queues.list(s.threadId);
    assert.deepEqual(
      queued.map((q) => q.text),
      ["first follow-up", "dropped follow-up", "second follow-up"],
    );
    await hub.composer.handle(panel, { type: "queueRemove", id: queued[1]!.id });
    await waitFor("both follow-ups to be answered", () => turns.length === 3 && s.status === "idle", 30_000);
    assert.deepEqual(turns, ["sleep 1500", "first follow-up", "second follow-up"]);
    assert.match(agentText(s.events), /echo: second follow-up/);
    await s.close();
  });

  it("a thread mention sends the stored thread; one of a thread gone comes back with the reason; order holds (#35)", async () => {
    const { hub } = await api();
    const past = writePastThread(hub.home, 1, () => "the okapi answer");
    const gone = writePastThread(hub.home, 1);
    hub.threads.delete(gone);
    const mention = (id: string, label: string): WirePart => ({ type: "context", ref: threadRef(id, label) });
    const s = await session("ctx-embed");
    const panel = fakePanel(s.threadId);
    const answer = await send(s, panel, [{ type: "text", text: "context " }, mention(past, "the okapi thread")]);
    assert.match(answer, new RegExp(`resource ${THREAD_URI_PREFIX}${past} "Past thread`), "its conversation, embedded");
    // a mention of a thread deleted since: the prompt comes back into the box with the reason, nothing is sent
    const before = s.events.length;
    const parts: WirePart[] = [{ type: "text", text: "context " }, mention(gone, "the gone thread")];
    await hub.composer.handle(panel, { type: "send", parts });
    const notice = panel.posts.filter((m) => m.type === "composerNotice").pop();
    assert.match(
      notice?.type === "composerNotice" ? notice.message : "",
      /the thread "the gone thread" no longer exists/,
    );
    assert.deepEqual(panel.posts.filter((m) => m.type === "editPrompt").pop(), { type: "editPrompt", parts });
    assert.equal(s.events.length, before, "nothing was sent or recorded");
    // two follow-ups sent at once while a turn runs: the one whose mention is looked up on the disk is not overtaken
    const turns: string[] = [];
    s.onEvents((evs) => evs.forEach((e) => e.type === "user_text" && turns.push(e.text)));
    await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "sleep 1500" }] });
    await waitFor("the turn to run", () => s.status === "working");
    await Promise.all([
      hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "again " }, mention(past, "okapi")] }),
      hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "plain follow-up" }] }),
    ]);
    assert.deepEqual(
      hub.composer.queues.list(s.threadId).map((q) => q.text),
      ["again @okapi", "plain follow-up"],
    );
    await waitFor("both follow-ups to be answered", () => turns.length === 3 && s.status === "idle", 30_000);
    assert.deepEqual(turns, ["sleep 1500", "again @okapi", "plain follow-up"]);
    await s.close();
  });

  it("Send now steers a queued follow-up into the running turn, or keeps it queued and says why", async () => {
    const { hub } = await api();
    for (const id of ["ctx-steer", "ctx-links"]) {
      const s = await session(id);
      const panel = fakePanel(s.threadId);
      const attached = hub.composer.attach(panel);
      await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "sleep 60000" }] });
      await waitFor("the agent to be inside its turn", () => /sleeping/.test(agentText(s.events)));
      await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "now please" }] });
      const [queued] = hub.composer.queues.list(s.threadId);
      await hub.composer.handle(panel, { type: "queueSteer", id: queued!.id });
      if (id === "ctx-steer") {
        const notices = panel.posts.filter((m) => m.type === "composerNotice");
        assert.deepEqual(notices, [], "no notice");
        await waitFor("the steered turn to end", () => s.status === "idle", 30_000);
        assert.deepEqual(hub.composer.queues.list(s.threadId), []);
        const steered = s.events.find((e) => e.type === "user_text" && e.steered);
        assert.equal(steered?.type === "user_text" ? steered.text : "", "now please");
        assert.match(agentText(s.events), /steered: now please/);
      } else {
        const notice = panel.posts.find((m) => m.type === "composerNotice");
        assert.match(notice?.type === "composerNotice" ? notice.message : "", /ctx-links does not support steering/);
        assert.equal(hub.composer.queues.list(s.threadId).length, 1, "it stays queued");
        const state = panel.posts.filter((m) => m.type === "composer" && "steerBlocked" in m.state).at(-1);
        assert.match(state?.type === "composer" ? (state.state.steerBlocked ?? "") : "", /does not support steering/);
        assert.equal(s.status, "working", "the turn was not interrupted");
      }
      attached.dispose();
      await s.close();
    }
  });
});

describe("new thread panel and context menus", () => {
  it("Spawn coding agent opens a new-thread panel at once; sending picks the agent and starts a session", async () => {
    const { hub } = await api();
    const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    assert.ok(draft && (await hub.composer.isDraft(draft)), "a new-thread panel, no agent yet");
    await waitFor("its panel", () => hub.panels.get(draft));
    const panel = fakePanel(draft);
    hub.composer.attach(panel);
    const state = await waitFor("its agent list", () =>
      panel.posts.find((m) => m.type === "composer" && m.state.draft),
    );
    const agents = state.type === "composer" ? state.state.draft!.agents : [];
    assert.ok(
      agents.some((a) => a.id === "ctx-links" && a.available),
      "configured agents are offered",
    );
    assert.ok(
      agents.some((a) => a.kind === "exec"),
      "agent CLIs too",
    );
    const missing = agents.filter((a) => !a.available);
    assert.ok(
      missing.every((a) => a.hint),
      "missing ones carry an install hint",
    );
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "hello from the new thread" }],
      agentId: "ctx-links",
      mode: "session",
    });
    const s = await sessionOf(hub, draft, "the live session");
    await waitFor("the first answer", () => agentText(s.events).includes("echo: hello from the new thread"));
    assert.ok(!(await hub.composer.isDraft(draft)));
    assert.equal(s.title, "hello from the new thread");
    await s.close();
  });

  it("typing in a past thread's panel resumes it with its agent and sends the prompt (#37)", async () => {
    const { hub } = await api();
    await fakeAgent("fake", {});
    const threadId = writePastThread(hub.home, 2);
    await vscode.commands.executeCommand("acpThreads.openThread", threadId);
    await waitFor("the past thread to render", () => hub.panels.rendered(threadId));
    const shown = hub.panels.shown(threadId)!;
    assert.equal(shown.status, "readonly", "no session runs");
    assert.ok(shown.resumable, "its prompt box is offered: a prompt resumes the thread");
    assert.equal(hub.live.get(threadId), undefined);
    const panel = fakePanel(threadId);
    await hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "and one more thing" }] });
    assert.ok(!panel.posts.some((m) => m.type === "composerNotice"), "no 'not running anymore' notice");
    const s = await sessionOf(hub, threadId, "the resumed session");
    // the fake agent cannot load a session it never had: the thread is seeded, the typed prompt after its history
    const answer = await waitFor("the answer to the typed prompt", () =>
      s.events.find((e) => e.type === "text" && e.stream === "output" && e.text.includes("and one more thing")),
    );
    assert.match(answer.type === "text" ? answer.text : "", /^echo: [\s\S]*question 1[\s\S]*and one more thing$/);
    assert.equal(s.title, "past thread with 2 exchanges", "the thread keeps its title");
    const stored = hub.threads.read(threadId).records.filter((r) => r.kind === "user_message");
    assert.equal(stored.length, 3, "the prompt is appended to the same thread (2 earlier + 1)");
    await s.close();
    await waitFor("the finished session's box to stay offered", () => {
      const now = hub.panels.shown(threadId);
      return now?.status === "closed" && now.resumable;
    });
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("Ask agent about selection puts the selection into the focused thread's box, or opens a new thread", async () => {
    const { hub } = await api();
    const inserted: { threadId: string; items: ContextItem[] }[] = [];
    const original = hub.composer.insert.bind(hub.composer);
    hub.composer.insert = (threadId, items) => (inserted.push({ threadId, items }), original(threadId, items));
    try {
      for (const s of hub.live.all()) await s.close();
      const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(greet()));
      ed.selection = new vscode.Selection(0, 0, 1, 5);
      const draft = await vscode.commands.executeCommand<string>("acpThreads.askAboutSelection");
      assert.ok(draft && (await hub.composer.isDraft(draft)), "no live thread: a new thread opens");
      await waitFor("the new thread's panel", () => hub.panels.get(draft));
      const s = await session("ctx-links");
      await waitFor("its panel to be the active one", () => hub.panels.lastActive() === s.threadId);
      const again = await vscode.window.showTextDocument(ed.document);
      again.selection = new vscode.Selection(2, 0, 2, 1);
      assert.equal(await vscode.commands.executeCommand("acpThreads.askAboutSelection"), s.threadId);
      assert.equal(inserted.at(-1)?.items[0]?.label, "greet.js:3");
      assert.equal(inserted.at(-1)?.items[0]?.content, `${again.document.lineAt(2).text}\n`);
      const readme = vscode.Uri.file(join(workspaceRoot(), "README.md"));
      const src = vscode.Uri.file(join(workspaceRoot(), "src"));
      assert.equal(
        await vscode.commands.executeCommand("acpThreads.addFileToThread", readme, [readme, src]),
        s.threadId,
      );
      assert.deepEqual(
        inserted.at(-1)?.items.map((i) => [i.kind, i.label]),
        [
          ["file", "README.md"],
          ["folder", "src/"],
        ],
      );
      await s.close();
    } finally {
      hub.composer.insert = original;
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});

function greet(): string {
  return join(workspaceRoot(), "src", "greet.js");
}
