// A real `elicitation/create` from claude-agent-acp 0.101 (#23 proof): with our client advertising form
// elicitation, Claude Code offers its AskUserQuestion tool; the scripted model calls it, the adapter turns the
// question into an ACP form (one choice field per question, plus an optional "Other" text field), our core
// answers it through the front end's asker, and the answer reaches the model as the tool's result.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ElicitationPrompt } from "../../src/core/model/elicitation";
import { AGENT_TIMEOUT_MS, collectTurn, runtimeFor, setUp, skipUnlessInstalled } from "./harness";

test(
  "claude-agent-acp: AskUserQuestion arrives as an elicitation form, our answer reaches the model",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("claude-agent-acp", { modelLog: true });
    const asked: ElicitationPrompt[] = [];
    const rt = runtimeFor(t, "approve-all", {
      elicitor: {
        async ask(prompt) {
          asked.push(prompt);
          if (prompt.mode !== "form") return { action: "decline" };
          const choice = prompt.form.fields.find((f) => f.kind === "choice");
          return choice ? { action: "accept", content: { [choice.name]: "blue" } } : { action: "decline" };
        },
      },
    });
    try {
      const s = await rt.ensureSession();
      const events = await collectTurn(rt, s.sessionId, "ask me which colour do you like? red or blue");
      assert.equal(events.at(-1)?.type, "done", JSON.stringify(events.at(-1)));
      assert.equal(asked.length, 1, "one elicitation/create");
      const form = asked[0]!;
      assert.equal(form.mode, "form");
      assert.match(form.message, /which colour do you like\?/);
      const fields = form.mode === "form" ? form.form.fields : [];
      const choice = fields.find((f) => f.kind === "choice");
      assert.deepEqual(choice && choice.kind === "choice" ? choice.choices.map((c) => c.value) : [], ["red", "blue"]);
      // the tool result the agent sent back to the model carries the answer
      const requests = readFileSync(join(t.runDir, "model.jsonl"), "utf8").split("\n").filter(Boolean);
      const after = requests.filter((l) => l.includes("tool_result") && /blue/.test(l));
      assert.ok(after.length >= 1, "a model request carries the answer in the AskUserQuestion result");
      const text = events.flatMap((e) => (e.type === "text" && e.stream === "output" ? [e.text] : [])).join("");
      assert.match(text, /asked which colour do you like\?.*blue/s);
    } finally {
      await rt.close();
      await t.cleanup();
    }
  },
);
