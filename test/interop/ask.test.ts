// The extension's path: policy "ask" with a PermissionAsker (the host's inline prompt). Every real agent's edit
// request reaches the asker with the proposed file text for diff review, the answer (chosen by option kind,
// never by id) goes back to the agent, and the decision is recorded as the user's. pi has no permission gate: it
// writes without asking, so the host is never asked (the test says so rather than skipping it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionPrompt } from "../../src/core/ports";
import { ACP_AGENTS, type AgentId } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, collectTurn, runtimeFor, setUp, skipUnlessInstalled } from "./harness";

const ASKS_NOTHING: AgentId[] = ["pi-acp"];

for (const id of [...ACP_AGENTS, "codex-acp-0.16"] as const) {
  const asks = !ASKS_NOTHING.includes(id);
  test(
    asks ? `${id} asks the host before editing and shows the proposed text` : `${id} edits without asking the host`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      const prompts: PermissionPrompt[] = [];
      const asker = {
        async ask(p: PermissionPrompt) {
          prompts.push(p);
          return p.request.options.find((o) => o.kind === "allow_once")?.optionId ?? null;
        },
      };
      const rt = runtimeFor(t, "ask", { asker });
      try {
        const s = await rt.ensureSession();
        const events = await collectTurn(rt, s.sessionId);
        assert.deepEqual(events.at(-1)?.type, "done");
        assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
        if (!asks) {
          assert.deepEqual(prompts, []);
          assert.equal(events.filter((e) => e.type === "permission").length, 0);
          return;
        }
        const edit = prompts.find((p) => p.proposed);
        assert.ok(
          edit,
          `no prompt carried a proposed edit: ${JSON.stringify(prompts.map((p) => p.request.toolCall.title))}`,
        );
        assert.deepEqual(
          [edit.proposed!.path, edit.proposed!.newText.trim(), edit.sessionId],
          [join(t.workspace, "hello.txt"), "hi", s.sessionId],
        );
        const decisions = events.flatMap((e) => (e.type === "permission" ? [e.decision] : []));
        assert.equal(decisions.length, prompts.length);
        assert.ok(
          decisions.every((d) => d.decidedBy === "user" && d.optionKind === "allow_once"),
          JSON.stringify(decisions),
        );
      } finally {
        await rt.close();
        await t.cleanup();
      }
    },
  );
}
