// #36 item 1 against real agents: a session created outside ACP Threads (this test speaks ACP to the agent with the
// SDK itself: session/new, one prompt, the process stopped) is imported by `threads import --from-agent`, shown by
// `threads show`, continued by `run --thread` on the same agent session (session/load of its id), and a second
// import adds nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { ThreadStore } from "../../src/core/store/thread-store";
import type { AgentId } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, PROMPT, runCli, setUp, skipUnlessInstalled, type Interop } from "./harness";

const AGENTS: AgentId[] = ["codex-acp", "claude-agent-acp"];

/** One session made by a plain ACP client that records nothing (as the agent's own CLI or Zed would). */
async function outsideSession(t: Interop): Promise<string> {
  const child = spawn(t.agent.command, t.agent.args, {
    cwd: t.workspace,
    env: t.agent.env,
    stdio: ["pipe", "pipe", "ignore"],
    detached: true,
  });
  try {
    const app = client({ name: "outside" })
      .onRequest(methods.client.session.requestPermission, ({ params }) => {
        const allow = params.options.find((o) => o.kind === "allow_once") ?? params.options[0]!;
        return { outcome: { outcome: "selected", optionId: allow.optionId } };
      })
      .onNotification(methods.client.session.update, () => {});
    const stream = ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    return await app.connectWith(stream, async (agent) => {
      await agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd: t.workspace, mcpServers: [] });
      const res = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: PROMPT }],
      });
      assert.equal(res.stopReason, "end_turn");
      return sessionId;
    });
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

const agentLine = (t: Interop) =>
  [t.agent.command, ...t.agent.args].map((w) => (/\s/.test(w) ? JSON.stringify(w) : w)).join(" ");

for (const id of AGENTS) {
  test(
    `${id}: a session made outside ACP Threads is imported, shown, resumed on the same session; a second import adds nothing`,
    { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        const sessionId = await outsideSession(t);
        const imported = await runCli(t, ["threads", "import", "--from-agent", agentLine(t), "--format", "json"]);
        assert.equal(imported.code, 0, imported.stderr);
        const sum = JSON.parse(imported.stdout);
        assert.deepEqual([sum.imported, sum.failed], [1, 0], imported.stdout);
        const threadId = sum.sessions.find((s: { sessionId: string }) => s.sessionId === sessionId).threadId as string;
        const store = new ThreadStore(t.dataHome);
        const m = store.read(threadId).metadata;
        assert.equal(m.agentSessionId, sessionId);
        assert.equal(m.origin?.kind, "agent-import");
        const kinds = new Set(store.read(threadId).records.map((r) => r.kind));
        for (const kind of ["user_message", "agent_message", "tool_call", "turn_end"])
          assert.ok(kinds.has(kind as never), `${kind} in ${[...kinds].join(", ")}`);

        const show = await runCli(t, ["threads", "show", threadId]);
        assert.equal(show.code, 0, show.stderr);
        assert.ok(show.stdout.includes(PROMPT), show.stdout);
        assert.match(show.stdout, /agent:/);

        const run = await runCli(t, [
          "run",
          "--thread",
          threadId,
          "--permission",
          "approve-all",
          "--format",
          "json",
          "say hello",
        ]);
        assert.equal(run.code, 0, run.stderr);
        const opens = store.read(threadId).records.flatMap((r) => (r.kind === "session_open" ? [r] : []));
        assert.deepEqual(
          opens.map((r) => [r.agentSessionId, r.origin]),
          [
            [sessionId, "load"],
            [sessionId, "load"],
          ],
        );

        const again = await runCli(t, ["threads", "import", "--from-agent", agentLine(t), "--format", "json"]);
        assert.equal(again.code, 0, again.stderr);
        const second = JSON.parse(again.stdout);
        assert.equal(second.imported, 0, again.stdout);
        assert.equal(second.updated, 0, again.stdout);
        assert.equal(store.ids().length, 1);
      } finally {
        await t.cleanup();
      }
    },
  );
}
