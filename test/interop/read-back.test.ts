// claude-code-acp replaces Claude's Read/Write with client calls: a write then a read-back goes through
// fs/write_text_file and fs/read_text_file of our engine, and the model sees what we returned.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, agentRequests, jsonLines, runAgentTurn, setUp, skipUnlessInstalled } from "./harness";

test(
  "claude-code-acp writes and reads a file back through the engine's fs methods",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("claude-code-acp");
    try {
      const logFile = join(t.runDir, "protocol.log");
      const r = await runAgentTurn(t, "approve-all", "create notes.md containing hello there and then read it back", [
        "--protocol-log",
        logFile,
        "--timeout",
        "100",
      ]);
      const lines = jsonLines(r.stdout);
      assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-1500)}\nsummary: ${JSON.stringify(lines.at(-1))}`);
      assert.equal(readFileSync(join(t.workspace, "notes.md"), "utf8").trim(), "hello there");
      const methods = agentRequests(logFile);
      assert.ok(
        methods.indexOf("fs/write_text_file") >= 0 &&
          methods.indexOf("fs/write_text_file") < methods.lastIndexOf("fs/read_text_file"),
        methods.join(", "),
      );
      const answer = lines
        .filter((l) => l.type === "text" && l.stream === "output")
        .map((l) => l.text)
        .join("");
      assert.match(answer, /^Done: created notes\.md, read notes\.md\. Tool output: .*hello there/);
    } finally {
      await t.cleanup();
    }
  },
);
