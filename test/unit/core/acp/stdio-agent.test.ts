import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import type { AgentSpec } from "../../../../src/core/model/agent";
import { collect, outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { repoRoot } from "../../../fixtures/agent-env/index";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

function spec(scenario = "default"): AgentSpec {
  return { id: "fake-stdio", displayName: "Fake stdio agent", command: process.execPath, args: [AGENT_JS, scenario] };
}

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-stdio-", fn);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("a malformed line and an oversized line are logged and skipped, and the session carries on", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec(), cwd }, { maxMessageBytes: 1024 * 1024 });
    try {
      const { sessionId } = await rt.ensureSession();
      const events = await collect(rt.runTurn(sessionId, "garbage"));
      assert.equal(outputText(events), "still alive");
      assert.equal(events[events.length - 1].type, "done");
      assert.equal(outputText(await collect(rt.runTurn(sessionId, "hello"))), "echo: hello");
      const notes = rt.protocolLog
        .entries()
        .filter((e) => e.direction === "note")
        .map((e) => e.text);
      assert.ok(notes.some((n) => n.includes("not JSON")));
      assert.ok(notes.some((n) => /skipped an incoming line of \d+ bytes/.test(n)));
      assert.equal(typeof rt.pid, "number");
    } finally {
      await rt.close();
    }
  }));

test("an agent that exits during initialize gives an error with its stderr tail", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec("crash-init"), cwd });
    await assert.rejects(rt.ensureSession(), (err: Error & { code?: string }) => {
      assert.equal(err.code, "agent_exited");
      assert.match(err.message, /exited during initialize \(code 3/);
      assert.match(err.message, /fatal: cannot start fake agent/);
      return true;
    });
    assert.equal(rt.getStatus(), "failed");
    await rt.close();
  }));

test("updates replayed during session/load over stdio come back with the loaded session", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec(), cwd });
    try {
      const opened = await rt.ensureSession({ resumeSessionId: "old-session" });
      assert.equal(opened.origin, "load");
      assert.deepEqual(opened.replay, [
        { type: "user_text", text: "earlier question" },
        { type: "text", stream: "output", text: "earlier answer" },
      ]);
    } finally {
      await rt.close();
    }
  }));

test("auth_required on session/new leads to authenticate and one retry", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec("auth"), cwd });
    try {
      const { sessionId } = await rt.ensureSession();
      assert.equal(sessionId, "fake-session-1");
      assert.ok(rt.protocolLog.lines().some((l) => l.includes('"method":"authenticate"')));
    } finally {
      await rt.close();
    }
  }));

test("login() authenticates when asked (the header's Log in…), then the session opens without auth_required", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec("auth"), cwd });
    try {
      await rt.login();
      const auths = () => rt.protocolLog.lines().filter((l) => l.includes('"method":"authenticate"')).length;
      assert.equal(auths(), 1);
      assert.equal((await rt.ensureSession()).sessionId, "fake-session-1");
      assert.equal(auths(), 1);
    } finally {
      await rt.close();
    }
  }));

test("close reaches a child the launcher left behind, through the process group", () =>
  withTmp(async (cwd) => {
    const pidFile = join(cwd, "child.pid");
    const rt = createAgentRuntime({ agent: spec("launcher"), cwd, env: { FAKE_AGENT_PIDFILE: pidFile } });
    const { sessionId } = await rt.ensureSession();
    assert.equal(outputText(await collect(rt.runTurn(sessionId, "hi"))), "echo: hi");
    const childPid = Number(await readFile(pidFile, "utf8"));
    assert.ok(alive(childPid));
    assert.notEqual(childPid, rt.pid);
    await rt.close();
    for (let i = 0; i < 50 && alive(childPid); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(childPid), false, "the launcher's child is gone");
    assert.ok(existsSync(pidFile));
  }));

test("an agent that dies mid-turn ends the turn with an error and the runtime reports failed", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec(), cwd });
    try {
      const { sessionId } = await rt.ensureSession();
      const events = await collect(rt.runTurn(sessionId, "die"));
      assert.equal(outputText(events), "dying");
      const last = events[events.length - 1];
      assert.equal(last.type, "error");
      assert.match(last.type === "error" ? last.message : "", /exited \(code 7/);
      assert.equal(rt.getStatus(), "failed");
      assert.ok(rt.protocolLog.stderrTail().includes("bye from stderr"));
    } finally {
      await rt.close();
    }
  }));

test("set_mode, session/list and session/close reach an agent that advertises them", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec(), cwd });
    try {
      const { sessionId, modes } = await rt.ensureSession();
      assert.equal(modes?.currentModeId, "default");
      await rt.setMode(sessionId, "default");
      assert.deepEqual(await rt.listSessions(cwd), []);
      await rt.closeSession(sessionId);
      const sent = rt.protocolLog.lines().filter((l) => l.includes(" -> "));
      for (const method of ["session/set_mode", "session/list", "session/close"]) {
        assert.ok(
          sent.some((l) => l.includes(`"method":"${method}"`)),
          method,
        );
      }
    } finally {
      await rt.close();
    }
  }));

test("closing the runtime during a turn cancels the turn and stops the agent", () =>
  withTmp(async (cwd) => {
    const rt = createAgentRuntime({ agent: spec("stubborn"), cwd });
    const { sessionId } = await rt.ensureSession();
    const events: string[] = [];
    let sawSleeping!: () => void;
    const sleeping = new Promise<void>((r) => (sawSleeping = r));
    const turn = (async () => {
      for await (const e of rt.runTurn(sessionId, "sleep 30000")) {
        events.push(e.type === "text" ? e.text : e.type === "done" ? `done:${e.stopReason}` : e.type);
        if (e.type === "text") sawSleeping();
      }
    })();
    await sleeping;
    const pid = rt.pid!;
    await rt.close();
    await turn;
    assert.equal(events[0], "sleeping");
    assert.ok(["done:cancelled", "error"].includes(events[events.length - 1]), events.join(","));
    assert.equal(alive(pid), false);
    assert.equal(rt.getStatus(), "closed");
  }));
