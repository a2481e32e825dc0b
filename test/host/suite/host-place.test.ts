// Issue 35, the third pass, in the real extension host: with acpThreads.host.runSessions host a new thread whose
// prompt carries context starts in the thread host, and its agent gets the blocks a window session sends (the
// unsaved buffer of a mentioned file, read through this window, a selection, an image); a prompt with context
// typed between turns goes to the same open run (one session), one the host refuses comes back into the box, and
// "Ask agent about selection" takes the focused hosted panel.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, greetJs as greet, greetSelection, waitFor } from "./helpers";
import { cli, hostRunSessions, sendNewInHost as sendNew } from "./host-cli";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString("base64");

describe("runSessions host: prompts with context in the thread host (#35)", () => {
  hostRunSessions("ctx-host", { FAKE_AGENT_PROMPT_CAPS: "image,embeddedContext" });

  it("a file chip (its unsaved text), a selection and an image reach the hosted agent as the window's blocks", async () => {
    const { hub } = await api();
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(greet()));
    await ed.edit((e) => e.insert(new vscode.Position(0, 0), "// HOSTED-UNSAVED\n"));
    try {
      const id = await sendNew("ctx-host", [
        { type: "text", text: "context about " },
        { type: "context", ref: { kind: "file", label: "greet.js", uri: `file://${greet()}`, path: greet() } },
        { type: "text", text: " and " },
        greetSelection(),
        { type: "image", name: "shot.png", data: PNG },
      ]);
      const records = () => hub.threads.read(id).records;
      await waitFor("the turn to end", () => records().some((r) => r.kind === "turn_end"), 30_000);
      const answer = records()
        .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
        .join("");
      assert.match(answer, new RegExp(`resource file://${greet()} "// HOSTED-UNSAVED"`), "the window's unsaved text");
      assert.match(answer, new RegExp(`resource file://${greet()}#L3:3 "SELECTED-LINE"`));
      assert.match(answer, /image image\/png 12 bytes/);
      const user = records().find((r) => r.kind === "user_message");
      assert.equal(user?.kind === "user_message" && user.text, "context about @greet.js and @greet.js:3");
    } finally {
      await vscode.window.showTextDocument(ed.document);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("a prompt with a chip typed between hosted turns goes to the same open run, the chip sent", async () => {
    const { hub } = await api();
    const id = await sendNew("ctx-host", [{ type: "text", text: "sleep 3000" }]);
    const first = await waitFor("the panel's view (opened on the host's thread)", () => hub.hosted.get(id));
    await waitFor("the host's run idle after its turn", () => first.status === "idle", 20_000);
    const posted: unknown[] = [];
    await hub.composer.handle(
      { threadId: id, post: (m) => void posted.push(m) },
      {
        type: "send",
        parts: [
          { type: "text", text: "context again " },
          { type: "context", ref: { kind: "file", label: "greet.js", uri: `file://${greet()}`, path: greet() } },
        ],
      },
    );
    const records = () => hub.threads.read(id).records;
    await waitFor("the second turn to end", () => records().filter((r) => r.kind === "turn_end").length >= 2, 30_000);
    const answer = records()
      .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
      .join("");
    assert.match(answer, new RegExp(`resource file://${greet()} `), `the chip reached the agent, embedded: ${answer}`);
    const prompts = records().flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(prompts, ["sleep 3000", "context again @greet.js"]);
    // before, a prompt with context ended the open run and started the next one (a new agent, session/load)
    assert.equal(hub.hosted.get(id), first, "the same run's view, not ended");
    assert.equal(records().filter((r) => r.kind === "session_open").length, 1, "one session: none opened again");
    const st = await cli(hub.home, ["host", "status", "--format", "json"]);
    const sessions = (JSON.parse(st.stdout) as { sessions: { threadId: string }[] }).sessions;
    assert.equal(sessions.filter((x) => x.threadId === id).length, 1, "one run of the thread in the host");
    assert.equal(hub.live.get(id), undefined, "no session of it in this window");
  });

  it("a chip the host refuses comes back into the box with the host's error; the run goes on", async () => {
    const { hub } = await api();
    // a file open in an editor outside the workspace: the window lets it be a chip, the host's run may not read it
    const outside = join(mkdtempSync(join(tmpdir(), "acp-host-parts-")), "notes.txt");
    writeFileSync(outside, "OUTSIDE-LINE\n");
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(outside));
    try {
      const id = await sendNew("ctx-host", [{ type: "text", text: "hello" }]);
      const view = await waitFor("the panel's view", () => hub.hosted.get(id));
      await waitFor("the host's run idle after its turn", () => view.status === "idle", 20_000);
      const posted: { type: string; parts?: unknown; message?: string }[] = [];
      const parts = [
        { type: "text" as const, text: "context see " },
        {
          type: "context" as const,
          ref: { kind: "file" as const, label: "notes.txt", uri: `file://${outside}`, path: outside },
        },
      ];
      await hub.composer.handle({ threadId: id, post: (m) => void posted.push(m as never) }, { type: "send", parts });
      const notice = await waitFor("the host's refusal in the box", () =>
        posted.find((m) => m.type === "composerNotice"),
      );
      assert.match(String(notice.message), /outside the run's folders/);
      assert.deepEqual(posted.find((m) => m.type === "editPrompt")?.parts, parts, "the draft is back in the box");
      assert.equal(hub.hosted.get(id), view, "the run goes on");
      const records = () => hub.threads.read(id).records;
      assert.equal(records().filter((r) => r.kind === "user_message").length, 1, "nothing reached the agent");
      assert.doesNotMatch(JSON.stringify(records()), /OUTSIDE-LINE/);
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });

  it("Ask agent about selection puts the chip into the focused panel of a hosted thread", async () => {
    const { hub } = await api();
    const id = await sendNew("ctx-host", [{ type: "text", text: "hello" }]);
    const view = await waitFor("the panel's view", () => hub.hosted.get(id));
    await waitFor("the host's run idle after its turn", () => view.status === "idle", 20_000);
    hub.panels.open(id, { preserveFocus: false });
    await waitFor("its panel to be the active one", () => hub.panels.lastActive() === id);
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(greet()), {
      viewColumn: vscode.ViewColumn.Beside,
    });
    ed.selection = new vscode.Selection(2, 0, 2, 1);
    try {
      // before, a hosted panel did not take context: the chip went to a new thread's draft
      assert.equal(await vscode.commands.executeCommand("acpThreads.askAboutSelection"), id);
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});
