// Issue 35, a new user's turns on a thread the default setting runs in the thread host (acpThreads.host.runSessions
// removed: `auto`, the host on POSIX), in the real extension host: the second prompt, typed in the panel's box with
// an @-mention of a file whose editor is unsaved, the editor's selection and a pasted image, goes to the same open
// run with the blocks a window session sends (host-place.test.ts runs the first prompt's, under `host`); the
// panel's Stop mid-turn cancels the host's turn and the run stays open for the next prompt (host-client.test.ts
// stops a detached run, which ends); the header's mode picker of a thread the box started, changed, reaches the
// agent (host-state.test.ts: a detached run's).
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { routeHosted } from "../../../src/vscode/host/hosted-panel";
import { api, greetJs as greet, greetSelection, waitFor } from "./helpers";
import { defaultRunSessions, sendIn, sendNewInHost, turnsEnded } from "./host-cli";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString("base64");

describe("runSessions auto, the default: a new user's turns on a hosted thread (#35)", () => {
  defaultRunSessions({
    "daily-ctx": { FAKE_AGENT_PROMPT_CAPS: "image,embeddedContext" },
    "daily-modes": { FAKE_AGENT_MODES: "codex" },
  });

  /** The thread's agent messages, joined; its prompts as recorded. */
  const said = async (id: string) =>
    (await api()).hub.threads
      .read(id)
      .records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
      .join("");
  const prompts = async (id: string) =>
    (await api()).hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
  const sessionsOpened = async (id: string) =>
    (await api()).hub.threads.read(id).records.filter((r) => r.kind === "session_open").length;

  it("a second prompt with an @-mention (unsaved), a selection and a pasted image: the same run, the window's blocks", async () => {
    const { hub } = await api();
    const id = await sendNewInHost("daily-ctx", [{ type: "text", text: "hello" }]);
    const view = await waitFor("the panel following the host's run", () => hub.hosted.get(id));
    await waitFor("the first turn's end", async () => (await turnsEnded(id)) === 1);
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(greet()));
    await ed.edit((e) => e.insert(new vscode.Position(0, 0), "// DAILY-UNSAVED\n"));
    try {
      await sendIn(id, [
        { type: "text", text: "context about " },
        { type: "context", ref: { kind: "file", label: "greet.js", uri: `file://${greet()}`, path: greet() } },
        { type: "text", text: " and " },
        greetSelection(),
        { type: "image", name: "pasted.png", data: PNG },
      ]);
      await waitFor("the second turn's end", async () => (await turnsEnded(id)) === 2);
      const answer = await said(id);
      assert.match(answer, new RegExp(`resource file://${greet()} "// DAILY-UNSAVED"`), "the window's unsaved text");
      assert.match(answer, new RegExp(`resource file://${greet()}#L3:3 "SELECTED-LINE"`), "the selection");
      assert.match(answer, /image image\/png 12 bytes/, "the pasted image");
      assert.deepEqual(await prompts(id), ["hello", "context about @greet.js and @greet.js:3"]);
      // the image kept beside the thread (no base64 in the JSONL), its thumbnail sent to the open panel's chip
      const user = view.events.filter((e) => e.type === "user_text").at(-1);
      const asset = user?.type === "user_text" ? user.context?.find((c) => c.asset)?.asset : undefined;
      assert.match(asset ?? "", /^[0-9a-f]{24}\.png$/, "the image's asset");
      const line = JSON.stringify(
        hub.threads
          .read(id)
          .records.filter((r) => r.kind === "user_message")
          .at(-1),
      );
      assert.ok(!line.includes(PNG), "no base64 in the JSONL line");
      await waitFor("the image's thumbnail in the open panel", () => hub.panels.shown(id)?.thumbs.includes(asset!));
      assert.equal(hub.hosted.get(id), view, "the same run's view, not ended");
      assert.equal(await sessionsOpened(id), 1, "one session: none opened again");
      assert.equal(hub.live.get(id), undefined, "no session of this window");
    } finally {
      await vscode.window.showTextDocument(ed.document);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("Stop mid-turn in the panel cancels the host's turn; the run stays open and answers the next prompt", async () => {
    const { hub } = await api();
    const id = await sendNewInHost("daily-ctx", [{ type: "text", text: "sleep 60000" }]);
    const view = await waitFor("the panel following the host's run", () => hub.hosted.get(id));
    await waitFor("the turn running", () => view.events.some((e) => e.type === "text" && /sleeping/.test(e.text)));
    assert.ok(await routeHosted(view, { type: "cancel" }, hub.broker), "the panel's Stop goes to the host");
    await waitFor("the turn's end", async () => (await turnsEnded(id)) === 1);
    const end = hub.threads.read(id).records.find((r) => r.kind === "turn_end");
    assert.equal(end?.kind === "turn_end" ? end.stopReason : undefined, "cancelled");
    await waitFor("the host's run idle, kept open", () => view.status === "idle");
    assert.ok(!view.ended, "the run goes on");
    await sendIn(id, [{ type: "text", text: "after the stop" }]);
    await waitFor("the next turn's end", async () => (await turnsEnded(id)) === 2);
    assert.match(await said(id), /echo: after the stop/);
    assert.equal(await sessionsOpened(id), 1, "the same session");
  });

  it("the mode picker of a thread the box started in the host: a change reaches the agent", async () => {
    const { hub } = await api();
    const id = await sendNewInHost("daily-modes", [{ type: "text", text: "hello" }]);
    const view = await waitFor("the panel following the host's run", () => hub.hosted.get(id));
    const modeOf = () => hub.panels.shown(id)?.pickers?.configOptions?.find((c) => c.id === "mode");
    const picker = await waitFor("the mode picker in the panel's header", modeOf);
    const to = picker.currentValue === "read-only" ? "workspace-write" : "read-only";
    assert.ok(await routeHosted(view, { type: "setConfig", configId: "mode", value: to }, hub.broker));
    await waitFor("the agent's answer in the picker", () => modeOf()?.currentValue === to);
    await waitFor("the first turn's end", async () => (await turnsEnded(id)) === 1);
    await sendIn(id, [{ type: "text", text: "in the new mode" }]);
    await waitFor("the next turn's end", async () => (await turnsEnded(id)) === 2);
    assert.equal(modeOf()?.currentValue, to, "the mode kept across turns");
    assert.equal(hub.live.get(id), undefined, "no session of this window");
  });
});
