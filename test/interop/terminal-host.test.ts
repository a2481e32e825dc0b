// claude-code-acp runs its Bash tool through terminal/*: the host (the extension's integrated terminal) is told
// about the terminal, sees its output and exit, and the engine keeps the output for the tool call after release.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { TerminalView } from "../../src/core/ports";
import { AGENT_TIMEOUT_MS, collectTurn, runtimeFor, setUp, skipUnlessInstalled } from "./harness";

test(
  "claude-code-acp's command runs in a host-visible terminal in the session cwd",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("claude-code-acp");
    const views: { view: TerminalView; output: string; exit?: { exitCode: number | null } }[] = [];
    const terminalHost = {
      onTerminalCreated(view: TerminalView) {
        const seen: (typeof views)[number] = { view, output: "" };
        views.push(seen);
        view.onOutput((data) => (seen.output += data));
        view.onExit((status) => (seen.exit = status));
      },
    };
    const rt = runtimeFor(t, "approve-all", { terminalHost });
    try {
      const s = await rt.ensureSession();
      const events = await collectTurn(rt, s.sessionId);
      assert.deepEqual(events.at(-1), { type: "done", stopReason: "end_turn" });
      assert.equal(views.length, 1, JSON.stringify(views.map((v) => v.view.commandLine)));
      const [{ view, output, exit }] = views;
      assert.deepEqual([view.commandLine, view.cwd, view.sessionId], ["echo hi", t.workspace, s.sessionId]);
      assert.equal(output.trim(), "hi");
      assert.equal(exit?.exitCode, 0);
      assert.equal(rt.terminalOutput(view.terminalId)?.output.trim(), "hi");
    } finally {
      await rt.close();
      await t.cleanup();
    }
  },
);
