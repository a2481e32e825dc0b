// `$/cancel_request`, stable since ACP schema 1.17: Stop cancels OUR requests still waiting on the agent for
// that session (the SDK sends `$/cancel_request` and the request rejects as cancelled), and a cancel from the
// agent for a request id we never used changes nothing. Against the stdio fake agent. The second test stops the
// agent's process (SIGSTOP) while our request and its cancel are sent, so that it reads both at once: the order a
// loaded machine gave once (the agent then counted 0 cancelled requests, its handler never saw the abort).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime, type AcpAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import type { AgentSpec } from "../../../../src/core/model/agent";
import type { ElicitationAsker } from "../../../../src/core/model/elicitation";
import type { PermissionAsker } from "../../../../src/core/ports";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { collect, outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
const spec: AgentSpec = { id: "fake-stdio", displayName: "Fake", command: process.execPath, args: [AGENT_JS] };

/** Our session/set_mode "slow" was written to the agent. */
const sent = (rt: AcpAgentRuntime) =>
  rt.protocolLog.entries().some((e) => e.direction === "send" && e.text.includes('"slow"'));

test("Stop sends $/cancel_request for our pending request on the session, which then rejects as cancelled", () =>
  withTmpDir("acp-cancel-req-", async (cwd) => {
    const rt = createAgentRuntime({ agent: spec, cwd });
    try {
      const { sessionId } = await rt.ensureSession();
      const pending = rt.setMode(sessionId, "slow");
      while (!sent(rt)) await new Promise((r) => setTimeout(r, 10));
      await rt.cancel(sessionId);
      await assert.rejects(pending, (err: { code?: number }) => err.code === -32800);
      const outgoing = rt.protocolLog.entries().filter((e) => e.direction === "send");
      assert.ok(outgoing.some((e) => e.text.includes('"$/cancel_request"')));
      assert.equal(outputText(await collect(rt.runTurn(sessionId, "cancelled-requests"))), "requests cancelled: 1");
      // the session's next requests are not cancelled by the earlier Stop
      await rt.setMode(sessionId, "default");
    } finally {
      await rt.close();
    }
  }));

test(
  "Stop before the agent read our request: the request and its $/cancel_request reach it together, still cancelled",
  { skip: process.platform === "win32" },
  () =>
    withTmpDir("acp-cancel-req-", async (cwd) => {
      const rt = createAgentRuntime({ agent: spec, cwd });
      try {
        const { sessionId } = await rt.ensureSession();
        process.kill(rt.pid!, "SIGSTOP");
        let rejected: Promise<void>;
        try {
          const pending = rt.setMode(sessionId, "slow");
          rejected = assert.rejects(pending, (err: { code?: number }) => err.code === -32800);
          while (!sent(rt)) await new Promise((r) => setTimeout(r, 10)); // on the wire (else nothing to cancel there)
          // session/cancel is written after `$/cancel_request`, which is after the request: all three are in the
          // pipe when the agent runs again
          await rt.cancel(sessionId);
        } finally {
          process.kill(rt.pid!, "SIGCONT");
        }
        await rejected;
        assert.equal(outputText(await collect(rt.runTurn(sessionId, "cancelled-requests"))), "requests cancelled: 1");
      } finally {
        await rt.close();
      }
    }),
);

/** Runs the fake agent's `withdrawn` turn: its request and `$/cancel_request` reach us in one read. */
async function withdrawn(what: "ask" | "elicit" | "wait", timedOut: AbortSignal): Promise<void> {
  await withTmpDir("acp-cancel-req-", async (cwd) => {
    const asked: string[] = [];
    // a person who is away: whoever is asked never answers
    const asker: PermissionAsker = { ask: () => (asked.push("permission"), new Promise(() => undefined)) };
    const elicitor: ElicitationAsker = { ask: () => (asked.push("elicitation"), new Promise(() => undefined)) };
    // the terminal the wait is for is let run by the policy (a terminal/create is gated)
    const permissionPolicy = what === "wait" ? ("approve-all" as const) : undefined;
    const rt = createAgentRuntime({
      agent: spec,
      cwd,
      asker,
      elicitor,
      ...(permissionPolicy ? { permissionPolicy } : {}),
    });
    timedOut.addEventListener("abort", () => void rt.close(), { once: true }); // the turn ends, the process can exit
    try {
      const { sessionId } = await rt.ensureSession();
      assert.equal(outputText(await collect(rt.runTurn(sessionId, `withdrawn ${what}`))), "answered");
      const answer = rt.protocolLog.entries().find((e) => e.direction === "send" && e.text.includes('"withdrawn-1"'));
      const reply = JSON.parse(answer!.text) as {
        result?: { outcome?: { outcome: string }; action?: string };
        error?: { code: number };
      };
      const cancelled =
        reply.error?.code === -32800 ||
        reply.result?.outcome?.outcome === "cancelled" ||
        reply.result?.action === "cancel";
      assert.ok(cancelled, answer!.text);
      assert.deepEqual(asked, [], "nobody was asked about a request the agent had withdrawn");
    } finally {
      await rt.close();
    }
  });
}

// before the fix these turns never ended (nothing answered the request): the timeout ends the test
test(
  "a permission request the agent withdraws at once (in the same read) is answered cancelled, nobody asked",
  { timeout: 30_000 },
  (t) => withdrawn("ask", t.signal),
);

test(
  "an elicitation the agent withdraws at once (in the same read) is answered cancelled, nobody asked",
  { timeout: 30_000 },
  (t) => withdrawn("elicit", t.signal),
);

// before the fix the wait lasted until the command exited (60 s): the timeout ends the test
test(
  "a terminal wait the agent withdraws at once (in the same read) is answered cancelled, not held to the command's exit",
  { timeout: 30_000 },
  (t) => withdrawn("wait", t.signal),
);

test("a $/cancel_request from the agent for an id we never used is ignored and the turn goes on", () =>
  withTmpDir("acp-cancel-req-", async (cwd) => {
    const rt = createAgentRuntime({ agent: spec, cwd });
    try {
      const { sessionId } = await rt.ensureSession();
      const events = await collect(rt.runTurn(sessionId, "cancel-unknown"));
      assert.equal(outputText(events), "still here");
      assert.deepEqual(events.at(-1), { type: "done", stopReason: "end_turn" });
    } finally {
      await rt.close();
    }
  }));
