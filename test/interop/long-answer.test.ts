// A multi-KB markdown answer streamed by the scripted model in pieces arrives through agent, engine and CLI
// exactly as the model wrote it: nothing lost, doubled or reordered, in each of the four API dialects.
import { test } from "node:test";
import assert from "node:assert/strict";
import { finalText } from "../fixtures/model-server/script";
import { AGENT_TIMEOUT_MS, jsonLines, runAgentTurn, setUp, skipUnlessInstalled } from "./harness";

const PROMPT = `Please give me a long report about this workspace. ${"Describe every module, its purpose and its tests in detail. ".repeat(25)}`;

for (const id of ["codex-acp", "claude-agent-acp", "pi-acp", "gemini", "opencode"] as const) {
  test(
    `${id} relays a multi-KB streamed answer unchanged`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        const r = await runAgentTurn(t, "approve-all", PROMPT, ["--timeout", "100"]);
        const lines = jsonLines(r.stdout);
        assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-1500)}`);
        const answer = lines
          .filter((l) => l.type === "text" && l.stream === "output")
          .map((l) => l.text)
          .join("");
        const expected = finalText(PROMPT, [], []);
        assert.ok(expected.length > 2000);
        assert.equal(answer.trim(), expected.trim());
      } finally {
        await t.cleanup();
      }
    },
  );
}
