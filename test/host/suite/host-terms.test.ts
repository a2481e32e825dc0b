// Issue 35 item 7 in the real extension host: with acpThreads.host.runSessions host, a hosted agent's
// `terminal/create` runs in the thread host's pty and this window shows it as an integrated terminal, named as its
// own sessions' terminals are, with its output; what the user types reaches the process. A second client of the
// host with this window's folders (what a reloaded window is) is shown the running terminal again, with its recent
// output, and can type into it too.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HostedThreads } from "../../../src/vscode/host/hosted-threads";
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
});
