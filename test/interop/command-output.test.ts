// 16.1: every real agent's `run echo hi` → the thread panel's command output. The engine's merged tool-call
// state (plus the client terminal, for agents that use terminal/*) goes through the same `commandOutput`
// the panel renders with; each agent must yield "hi" (gemini sends no output: it must yield nothing, not junk).
import { test } from "node:test";
import assert from "node:assert/strict";
import { commandOutput } from "../../src/core/model/command-output";
import type { RuntimeEvent } from "../../src/core/model/events";
import { AGENT_TIMEOUT_MS, collectTurn, runtimeFor, setUp, skipUnlessInstalled, toolCalls } from "./harness";

// Where each agent puts the output. codex-acp sometimes also streams `_meta.terminal_output` (then that is
// read first); its exec record in rawOutput always has the output, exit code and duration.
const EXPECT: Record<string, { sources: (string | undefined)[]; exitCode?: number; command?: string }> = {
  "codex-acp": { sources: ["rawOutput", "meta"], exitCode: 0, command: "echo hi" },
  "claude-agent-acp": { sources: ["meta"], exitCode: 0, command: "echo hi" }, // 0.101 also sends _meta.terminal_exit
  "claude-code-acp": { sources: ["terminal"], exitCode: 0, command: "echo hi" }, // exit code from its rawOutput text
  opencode: { sources: ["content"], exitCode: 0, command: "echo hi" },
  "pi-acp": { sources: ["meta"], exitCode: 0 }, // sends no rawInput for its bash tool (the title says "echo hi")
  "codex-acp-0.16": { sources: ["rawOutput", "meta"], exitCode: 0, command: "echo hi" },
  gemini: { sources: [undefined] }, // sends neither output nor rawInput
};

for (const [id, want] of Object.entries(EXPECT)) {
  test(
    `${id}: the finished echo hi shows its output`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async (tc) => {
      const t = await setUp(id as never);
      const rt = runtimeFor(t, "approve-all");
      try {
        const { sessionId } = await rt.ensureSession();
        // every event of the session, the turn's and any after its answer: an agent may send the command's last
        // update just after it answered the prompt (codex-acp 0.16 did under load: the call was still in_progress
        // when the turn ended); the engine records and shows such an update as the thread's history, so the
        // panel's final state is the last one sent
        const all: RuntimeEvent[] = [];
        const tap = rt.onEvent((e) => e.sessionId === sessionId && all.push(e.event));
        const events = await collectTurn(rt, sessionId, "run `echo hi`");
        const execute = () => toolCalls(all).find((c) => c.kind === "execute");
        for (const until = Date.now() + 15_000; execute()?.status === "in_progress" && Date.now() < until;)
          await new Promise((resolve) => setTimeout(resolve, 50));
        tap.dispose();
        assert.ok(
          toolCalls(events).some((c) => c.kind === "execute"),
          `an execute tool call in the turn: ${JSON.stringify(toolCalls(events)).slice(0, 800)}`,
        );
        const call = execute();
        assert.ok(call, `an execute tool call: ${JSON.stringify(toolCalls(events)).slice(0, 800)}`);
        assert.equal(call.status, "completed");
        const term = call.content.find((c) => c.type === "terminal");
        const buffered = term?.type === "terminal" ? rt.terminalOutput(term.terminalId) : undefined;
        const out = commandOutput(call, buffered ? { text: buffered.output } : undefined);
        assert.ok(want.sources.includes(out.source), `${out.source}: ${JSON.stringify(call).slice(0, 1500)}`);
        // codex-acp 0.16's unified exec sometimes reports a quick command's completion with stdout, aggregated_output
        // and formatted_output all empty and streams no terminal output (once in a CI rehearsal, then 4 of 71
        // runs here at load about 2; its record then holds only the exit code and duration): the agent sent no "hi" anywhere, so there is
        // nothing to show, and nothing must be shown. Anywhere the agent sent the text, it must be what shows.
        if (out.source === "rawOutput" && out.output === "" && sentNoOutput(call)) {
          tc.diagnostic(`${id} reported the command's completion with every output field empty`);
        } else if (out.source) assert.match(out.output ?? "", /^hi\r?\n?$/);
        else assert.equal(out.output, undefined);
        assert.equal(out.exitCode, want.exitCode);
        assert.equal(out.command, want.command);
        assert.equal(typeof out.durationMs, "number", "the call was seen running, so it has a duration");
      } finally {
        await rt.close();
        await t.cleanup();
      }
    },
  );
}

/** The agent's record of the call holds no output text anywhere: no streamed terminal output, no content, every output field of its rawOutput empty. */
function sentNoOutput(call: { terminalOutput?: string; content: { type: string }[]; rawOutput?: unknown }): boolean {
  const raw = (call.rawOutput ?? {}) as Record<string, unknown>;
  const fields = ["stdout", "stderr", "aggregated_output", "formatted_output", "output"];
  return (
    !call.terminalOutput &&
    !call.content.some((c) => c.type === "content") &&
    fields.every((f) => raw[f] === undefined || raw[f] === "")
  );
}
