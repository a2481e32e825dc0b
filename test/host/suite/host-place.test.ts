// Issue 35, the third pass, in the real extension host: with acpThreads.host.runSessions host a new thread whose
// prompt carries context starts in the thread host, and its agent gets the blocks a window session sends (the
// unsaved buffer of a mentioned file, read through this window, a selection, an image); a prompt with context
// typed after the host's run ended continues the thread in the host with that context.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, fakeAgent, greetJs as greet, greetSelection, useFakeAgent, waitFor } from "./helpers";
import { cli, sendNewInHost as sendNew } from "./host-cli";

const cfg = () => vscode.workspace.getConfiguration("acpThreads");
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString("base64");

describe("runSessions host: prompts with context in the thread host (#35)", () => {
  before(async () => {
    await useFakeAgent();
    await fakeAgent("ctx-host", { FAKE_AGENT_PROMPT_CAPS: "image,embeddedContext" });
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await cfg().update("host.runSessions", undefined, vscode.ConfigurationTarget.Global);
    await useFakeAgent();
  });
  afterEach(async () => {
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

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

  it("a prompt with a chip typed between hosted turns starts the thread's next run in the host, the chip sent", async () => {
    const { hub } = await api();
    const id = await sendNew("ctx-host", [{ type: "text", text: "sleep 3000" }]);
    const first = await waitFor("the panel's view (opened on the host's thread)", () => hub.hosted.get(id));
    // the run stays open between prompts; its prompts take text, so one with context ends it and starts the next
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
    // before, a prompt with context was never continued in the host: the window resumed the thread
    await waitFor("the panel following the host's next run", () => hub.hosted.get(id)).catch((err: Error) => {
      throw new Error(`${err.message}; the panel got ${JSON.stringify(posted).slice(0, 600)}`);
    });
    assert.equal(hub.live.get(id), undefined, "no session of it in this window");
    const records = () => hub.threads.read(id).records;
    await waitFor("the second turn to end", () => records().filter((r) => r.kind === "turn_end").length >= 2, 30_000);
    const answer = records()
      .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
      .join("");
    assert.match(
      answer,
      new RegExp(`resource file://${greet()} `),
      `the chip reached the agent, embedded (the thread's own agent's env: not "fake"'s, the same command): ${answer}`,
    );
    const prompts = records().flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(prompts, ["sleep 3000", "context again @greet.js"]);
  });
});
