import assert from "node:assert/strict";
import { RequestError } from "@agentclientprotocol/sdk";
import { test } from "node:test";
import { collect, lastEvent, outputText, startFake } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-updates-", fn);

for (const wire of ["ndjson", "direct"] as const) {
  test(`a thousand streamed chunks arrive as text events in order (${wire} wire)`, () =>
    withTmp(async (cwd) => {
      const rt = startFake(
        {
          prompt: async ({ say }) => {
            await Promise.all(Array.from({ length: 1000 }, (_, i) => say(`${i},`)));
            return "end_turn";
          },
        },
        { cwd },
        { wire },
      );
      try {
        const { sessionId } = await rt.ensureSession();
        const events = await collect(rt.runTurn(sessionId, "go"));
        const expected = Array.from({ length: 1000 }, (_, i) => `${i},`).join("");
        assert.equal(outputText(events), expected);
        assert.deepEqual(lastEvent(events), { type: "done", stopReason: "end_turn" });
      } finally {
        await rt.close();
      }
    }));
}

test("tool call updates are merged by id with patch semantics and terminal output is appended", () =>
  withTmp(async (cwd) => {
    const rt = startFake(
      {
        prompt: async ({ update }) => {
          await update({
            sessionUpdate: "tool_call",
            toolCallId: "t1",
            title: "echo hi",
            kind: "execute",
            status: "pending",
            locations: [{ path: "/x" }],
          });
          await update({
            sessionUpdate: "tool_call_update",
            toolCallId: "t1",
            status: "in_progress",
            _meta: { terminal_output: { terminal_id: "a", data: "hi" } },
          });
          await update({
            sessionUpdate: "tool_call_update",
            toolCallId: "t1",
            title: "exec_command",
            _meta: { terminal_output: { terminal_id: "a", data: "\n" } },
          });
          await update({
            sessionUpdate: "tool_call_update",
            toolCallId: "t1",
            status: "completed",
            rawOutput: { code: 0 },
          });
          return "end_turn";
        },
      },
      { cwd },
    );
    try {
      const { sessionId } = await rt.ensureSession();
      const calls = (await collect(rt.runTurn(sessionId, "go"))).flatMap((e) =>
        e.type === "tool_call" ? [e.toolCall] : [],
      );
      assert.equal(calls.length, 4);
      assert.deepEqual(
        calls.map((c) => c.status),
        ["pending", "in_progress", "in_progress", "completed"],
      );
      const final = calls[3];
      assert.equal(final.title, "exec_command");
      assert.equal(final.kind, "execute");
      assert.deepEqual(final.locations, [{ path: "/x" }]);
      assert.equal(final.terminalOutput, "hi\n");
      assert.deepEqual(final.rawOutput, { code: 0 });
    } finally {
      await rt.close();
    }
  }));

test("session/load replays arrive before the response and are attributed to the loaded session", () =>
  withTmp(async (cwd) => {
    const seen: string[] = [];
    const rt = startFake(
      {
        loadSession: true,
        replay: [
          { sessionUpdate: "user_message_chunk", content: { type: "text", text: "old question" } },
          { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "old answer" } },
        ],
        prompt: () => "end_turn",
      },
      { cwd },
    );
    rt.onEvent(({ sessionId }) => seen.push(sessionId));
    try {
      const opened = await rt.ensureSession({ resumeSessionId: "earlier-7" });
      assert.equal(opened.origin, "load");
      assert.equal(opened.sessionId, "earlier-7");
      assert.deepEqual(opened.replay, [
        { type: "user_text", text: "old question" },
        { type: "text", stream: "output", text: "old answer" },
      ]);
      assert.deepEqual(seen, ["earlier-7", "earlier-7"]);
    } finally {
      await rt.close();
    }
  }));

test("ensureSession falls back to a new session when the agent cannot load", () =>
  withTmp(async (cwd) => {
    const rt = startFake({ prompt: () => "end_turn" }, { cwd });
    try {
      const opened = await rt.ensureSession({ resumeSessionId: "gone" });
      assert.equal(opened.origin, "new");
      assert.equal(opened.sessionId, "s1");
    } finally {
      await rt.close();
    }
  }));

test("additional directories are sent only when the agent advertises them", () =>
  withTmp(async (cwd) => {
    const requests: unknown[] = [];
    for (const additionalDirectories of [true, false]) {
      const rt = startFake(
        { additionalDirectories, onNewSession: (p) => requests.push(p), prompt: () => "end_turn" },
        { cwd, additionalDirectories: ["/extra"] },
      );
      await rt.ensureSession();
      await rt.close();
    }
    assert.deepEqual((requests[0] as { additionalDirectories?: string[] }).additionalDirectories, ["/extra"]);
    assert.equal((requests[1] as { additionalDirectories?: string[] }).additionalDirectories, undefined);
  }));

test("status moves from starting to idle to working and back, and the protocol log holds both directions", () =>
  withTmp(async (cwd) => {
    const statuses: string[] = [];
    const rt = startFake({ prompt: async ({ say }) => (await say("x"), "end_turn") }, { cwd });
    rt.onStatus((s) => statuses.push(s));
    try {
      assert.equal(rt.getStatus(), "starting");
      const { sessionId } = await rt.ensureSession();
      await collect(rt.runTurn(sessionId, "go"));
      assert.deepEqual(statuses, ["idle", "working", "idle"]);
      assert.equal(rt.getCapabilities()?.agentInfo?.name, "in-process-fake");
      const lines = rt.protocolLog.lines();
      assert.ok(lines.some((l) => l.includes("-> ") && l.includes('"method":"initialize"')));
      assert.ok(lines.some((l) => l.includes("<- ") && l.includes('"agent_message_chunk"')));
    } finally {
      await rt.close();
    }
    assert.equal(rt.getStatus(), "closed");
  }));

test("a terminal auth method runs the agent's login command instead of sending authenticate, then retries", () =>
  withTmp(async (cwd) => {
    let attempts = 0;
    const rt = startFake(
      {
        authMethods: [{ type: "terminal", id: "login", name: "Log in", args: ["-c", "exit 0"] } as never],
        onNewSession: () => {
          if (attempts++ === 0) throw RequestError.authRequired();
        },
        prompt: () => "end_turn",
      },
      { cwd, agent: { id: "fake", displayName: "Fake", command: "/bin/sh", args: [] } },
    );
    try {
      const { sessionId } = await rt.ensureSession();
      assert.equal(sessionId, "s1");
      assert.equal(attempts, 2);
      assert.equal(
        rt.protocolLog.lines().some((l) => l.includes('"method":"authenticate"')),
        false,
      );
    } finally {
      await rt.close();
    }
  }));

test("a request the client does not serve gets Method not found and the session carries on", () =>
  withTmp(async (cwd) => {
    const rt = startFake(
      {
        prompt: async ({ client, say }) => {
          const code = await client.request("vendor/unknown", {}).then(
            () => "answered",
            (err: { code?: number }) => String(err.code),
          );
          await say(code);
          return "end_turn";
        },
      },
      { cwd },
    );
    try {
      const { sessionId } = await rt.ensureSession();
      assert.equal(outputText(await collect(rt.runTurn(sessionId, "go"))), "-32601");
    } finally {
      await rt.close();
    }
  }));
