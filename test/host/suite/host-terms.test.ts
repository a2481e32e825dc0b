// Issue 35 item 7 in the real extension host: with acpThreads.host.runSessions host, a hosted agent's
// `terminal/create` runs in the thread host's pty and this window shows it as an integrated terminal, named as its
// own sessions' terminals are, with its output; what the user types reaches the process. A second client of the
// host with this window's folders (what a reloaded window is) is shown the running terminal again, with its recent
// output, and can type into it too. What the host refuses to pass on (a terminal it does not run, or does not show
// to this window) is said in the terminal, not dropped without a word.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HostedThreads } from "../../../src/vscode/host/hosted-threads";
import { HostedTerminals } from "../../../src/vscode/host/serve-terminals";
import { reloadedWindow } from "./reloaded-window";
import { api, terminalScreen, useFakeAgent, waitFor } from "./helpers";

const COMMAND = "echo hosted-terminal-says-hi; cat";

describe("the thread host's agents' terminals shown in this window", () => {
  it("a hosted agent's terminal is an integrated terminal with its output, typed into, and shown again to a reloaded window", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    // the terminal's command runs without a question (approve-reads asks for it on the card)
    await cfg.update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
    let reloaded: HostedThreads | undefined;
    try {
      const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
      await waitFor("the new thread's panel", () => hub.panels.get(draft));
      await hub.composer.handle(
        { threadId: draft, post: () => undefined },
        { type: "send", parts: [{ type: "text", text: `terminal ${COMMAND}` }], agentId: "fake", mode: "session" },
      );
      const row = await waitFor("the thread in the host", () => hub.hosted.rows()[0]);
      assert.equal(hub.live.get(row.threadId), undefined, "no session of it in this window");
      const shown = () => vscode.window.terminals.filter((t) => t.name.includes(COMMAND));
      const term = await waitFor("the hosted terminal", () => shown()[0], 30_000);
      assert.equal(term.name, `Fake agent: ${COMMAND}`, "named as the window's own sessions' terminals");
      await waitFor("its output on the screen", async () =>
        (await terminalScreen(term)).includes("hosted-terminal-says-hi"),
      );
      term.sendText("typed-in-this-window");
      await waitFor("cat's echo of the typing", async () =>
        (await terminalScreen(term)).includes("typed-in-this-window"),
      );
      // a terminal shown here that the host does not run (as one whose end never reached this window): what is
      // typed into it is refused by the host, and the terminal says so
      const name = "Refusing agent: not-in-the-host";
      hub.hosted.terminals.push({
        t: "terminal",
        term: "no-such-terminal",
        sessionId: "s",
        label: "Refusing agent",
        commandLine: "not-in-the-host",
        cwd: "/",
      });
      const bogus = await waitFor("the terminal", () => vscode.window.terminals.find((t) => t.name === name));
      await waitFor("its banner", async () => (await terminalScreen(bogus)).includes("$ not-in-the-host"));
      bogus.sendText("typing", false);
      const refused = await waitFor("the refusal on its screen", async () => {
        const s = await terminalScreen(bogus);
        return s.includes("what you typed was not sent: the thread host refused it") ? s : undefined;
      });
      assert.match(refused, /that terminal is not running, or not shown to this client/);
      bogus.dispose();
      // a reloaded window: a new client of the host with this window's folders
      reloaded = reloadedWindow(hub);
      await reloaded.link.check();
      const again = await waitFor("the terminal shown again", () => shown().find((t) => t !== term), 30_000);
      const screen = await waitFor("its recent output", async () => {
        const s = await terminalScreen(again);
        return s.includes("typed-in-this-window") ? s : undefined;
      });
      assert.match(screen, /hosted-terminal-says-hi/);
      again.sendText("typed-after-the-reload");
      again.sendText("\x04", false);
      const said = await waitFor(
        "the agent's answer",
        () => {
          const text = hub.threads
            .read(row.threadId)
            .records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
            .join("");
          return text.includes("exit ") ? text : undefined;
        },
        30_000,
      );
      assert.match(said, /exit 0: .*typed-in-this-window.*typed-after-the-reload/s);
      await waitFor("the exit on the first terminal", async () =>
        /process exited with code 0/.test(await terminalScreen(term)),
      );
    } finally {
      reloaded?.dispose();
      for (const t of vscode.window.terminals.filter((x) => x.name.includes(COMMAND))) t.dispose();
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await cfg.update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
      const c = await hub.hosted.link.connection();
      await c?.request({ t: "stop", force: true }).catch(() => undefined);
    }
  });

  it("a refusal is said once until typing goes through again, not once per key", async () => {
    const answers: (() => Promise<void>)[] = [];
    let calls = 0;
    const terms = new HostedTerminals((_term, input) => {
      if (!("data" in input)) return Promise.resolve(); // a resize: not typing
      calls++;
      return (answers.shift() ?? (() => Promise.resolve()))();
    });
    const refuse = () => Promise.reject(new Error("refused-by-the-host"));
    answers.push(
      refuse,
      refuse,
      () => Promise.resolve(),
      refuse,
      () => Promise.resolve(),
    );
    const name = "Once agent: once-cmd";
    try {
      terms.push({ t: "terminal", term: "t1", sessionId: "s", label: "Once agent", commandLine: "once-cmd", cwd: "/" });
      const term = await waitFor("the terminal", () => vscode.window.terminals.find((t) => t.name === name));
      await waitFor("its banner", async () => (await terminalScreen(term)).includes("$ once-cmd"));
      for (const [i, text] of ["a", "b", "c", "d", "e"].entries()) {
        term.sendText(text, false);
        await waitFor(`typing ${i + 1} sent`, () => calls === i + 1);
      }
      const notes = (await terminalScreen(term)).split("refused-by-the-host").length - 1;
      assert.equal(notes, 2, "said at the first refusal and again after typing went through, not per key");
    } finally {
      terms.dispose();
    }
  });
});
