// Steering and fork on the real adapters: codex-acp 2.6 and claude-agent-acp 0.101 advertise `_meta.steering` and
// `sessionCapabilities.fork`; with no turn running, `_session/steering` (idleBehavior promptRequired) leaves the
// message to us; after a turn, `session/fork` makes a new agent session that loads in a fresh process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { forkAgentSession, forkSupported } from "../../src/core/acp/fork";
import { steeringSupported, steerTurn } from "../../src/core/acp/steering";
import type { AgentId } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, collectTurn, runtimeFor, setUp, skipUnlessInstalled } from "./harness";

for (const id of ["codex-acp", "claude-agent-acp"] as AgentId[]) {
  test(
    `${id}: steering with no running turn answers promptRequired; session/fork after a turn loads in a new process`,
    { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      const rt = runtimeFor(t);
      let second: ReturnType<typeof runtimeFor> | undefined;
      try {
        const s = await rt.ensureSession();
        const caps = rt.getCapabilities();
        assert.equal(steeringSupported(caps), true);
        assert.equal(forkSupported(caps), true);
        const idle = await steerTurn(rt, id, s.sessionId, [{ type: "text", text: "also say bye" }]);
        assert.equal(idle, "promptRequired");
        const events = await collectTurn(rt, s.sessionId);
        assert.equal(events.at(-1)?.type, "done");
        const forked = await forkAgentSession(rt, s.sessionId, t.workspace);
        assert.ok(forked && forked !== s.sessionId, forked);
        await rt.close();
        second = runtimeFor(t);
        const opened = await second.ensureSession({ resumeSessionId: forked });
        assert.equal(opened.sessionId, forked);
        assert.notEqual(opened.origin, "new");
      } finally {
        await rt.close();
        await second?.close();
        await t.cleanup();
      }
    },
  );
}
