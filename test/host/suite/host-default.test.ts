// Issue 35's headline in the real extension host: with acpThreads.host.runSessions removed from the user's settings
// (the default, `auto`: the thread host on POSIX, where its door is the user's alone), a thread started from the
// new-thread panel or by `acpThreads.spawn` runs in the thread host, so a window reload does not end its turn;
// `acpThreads.spawn` with an empty task opens a thread in the host whose agent session waits idle, and its first
// prompt runs there; `window` keeps them in the window. (The harness pins `window` for the other suites.)
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, useFakeAgent, waitFor } from "./helpers";
import { cli, hostedNode, ranInHost, sendNewInHost, spawned } from "./host-cli";

describe("runSessions auto, the default: new threads run in the thread host (#35)", () => {
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");
  const setting = (v: string | undefined) => cfg().update("host.runSessions", v, vscode.ConfigurationTarget.Global);

  before(async () => {
    await useFakeAgent();
    await setting(undefined); // the harness's `window` removed: the default a new user has
  });
  after(() => setting("window"));
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
    await setting(undefined);
  });

  it("the setting is absent: auto, which is the host here (POSIX)", async () => {
    const { hub } = await api();
    assert.equal(cfg().inspect("host.runSessions")?.globalValue, undefined);
    assert.equal(cfg().inspect("host.runSessions")?.defaultValue, "auto");
    assert.equal(hub.config.hostRunSessions, "host");
  });

  it("a new-thread panel's Send runs in the host: a hosted row", async () => {
    const id = await sendNewInHost("fake", [{ type: "text", text: "from the box by default" }]);
    await ranInHost(id, /^from the box by default$/);
    await waitFor("the thread's hosted row", () => hostedNode(id));
  });

  it("acpThreads.spawn with a task runs in the host: a hosted row", async () => {
    const id = await spawned("spawned by default");
    await ranInHost(id, /^spawned by default$/);
    await waitFor("the thread's hosted row", () => hostedNode(id));
  });

  it("acpThreads.spawn with an empty task opens a thread in the host, idle; its first prompt runs there", async () => {
    const { hub } = await api();
    const id = await spawned("");
    assert.equal(hub.live.get(id), undefined, "no session of this window");
    await waitFor("the host's session waiting idle", () => hub.hosted.link.session(id)?.state === "idle");
    await waitFor("the thread's hosted row", () => hostedNode(id));
    await waitFor("its panel, open at once", () => hub.panels.get(id));
    // the panel follows the host's run once drawn (as for any hosted thread): its box's prompts go to the host
    await waitFor("the panel following the host's run", () => hub.hosted.get(id));
    assert.ok(
      !hub.threads.read(id).records.some((r) => r.kind === "user_message"),
      "no prompt was sent for the empty task",
    );
    const posted: unknown[] = [];
    await hub.composer.handle(
      { threadId: id, post: (m) => void posted.push(m) },
      { type: "send", parts: [{ type: "text", text: "the first prompt, typed later" }] },
    );
    await ranInHost(id, /^the first prompt, typed later$/).catch((err: Error) => {
      const records = hub.threads.read(id).records.map((r) => r.kind);
      throw new Error(`${err.message}; the panel got ${JSON.stringify(posted).slice(0, 600)}; records ${records}`);
    });
  });

  it("a prompt for a thread the host holds idle, sent before a panel follows it, runs in that same run", async () => {
    const { hub } = await api();
    const id = await spawned("");
    await waitFor("the host's session waiting idle", () => hub.hosted.link.session(id)?.state === "idle");
    // no panel follows it (a scripted caller's prompt: the box's fallback), the host still holds it
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await waitFor("no panel following it", () => !hub.panels.get(id) && !hub.hosted.get(id));
    assert.equal(hub.hosted.link.session(id)?.state, "idle", "the host still holds it, idle");
    const posted: unknown[] = [];
    await hub.composer.handle(
      { threadId: id, post: (m) => void posted.push(m) },
      { type: "send", parts: [{ type: "text", text: "sent to the held run" }] },
    );
    await ranInHost(id, /^sent to the held run$/).catch((err: Error) => {
      throw new Error(`${err.message}; the box got ${JSON.stringify(posted).slice(0, 600)}`);
    });
    // the held run took it: one agent session opened, not a second run's
    const opened = hub.threads.read(id).records.filter((r) => r.kind === "session_open");
    assert.equal(opened.length, 1, `the agent sessions opened: ${opened.length}`);
  });

  it("window keeps acpThreads.spawn's threads in the window, with a task or without", async () => {
    const { hub } = await api();
    await setting("window");
    for (const task of ["kept in the window", ""]) {
      const id = await spawned(task);
      const s = await waitFor("the window's session", () => hub.live.get(id));
      assert.equal(hub.hosted.link.session(id), undefined, "not the host's");
      await waitFor("its session open", () => s.isOpen);
      await s.close();
    }
  });
});
