// ThreadSession as the watchdog drives it: restarting a stuck agent, noticing a dead one, and the protocol
// traffic each thread leaves for bug bundles.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../src/core/acp/agent-runtime";
import { readTraffic } from "../../../src/core/bundle/traffic";
import { ThreadSession, type AgentExit } from "../../../src/core/session";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { repoRoot } from "../../fixtures/agent-env/index";
import { startFake, type FakeAgentScript } from "../../fixtures/fake-agents/in-process";
import { withTmp } from "./store/helpers";

const agentRef = { id: "fake", name: "Fake", command: "/bin/false" };

test("restart cuts off a turn that ignores cancel and reopens the session with session/load", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    let stuck = true;
    const script: FakeAgentScript = {
      loadSession: true,
      async prompt(t) {
        if (!stuck) {
          await t.say("back at work");
          return "end_turn";
        }
        await t.say("thinking…");
        await new Promise(() => {}); // deaf to session/cancel: only a new process helps
        return "end_turn";
      },
    };
    const session = await ThreadSession.start({
      store,
      agent: agentRef,
      cwd: dir,
      live: { flushMs: 0 },
      createRuntime: () => startFake(script, { cwd: dir }),
    });
    const said = new Promise<void>((resolve) => session.onEvent((e) => e.type === "text" && resolve()));
    // an in-process agent holds no handle: keep the loop alive through restart's (unref'd) grace period
    const keepAlive = setInterval(() => {}, 1000);
    const turn = session.prompt("do the thing");
    await said;
    assert.equal(session.turnRunning, true);
    stuck = false;
    assert.equal(await session.restart(), "load");
    assert.notEqual((await turn).stopReason, "end_turn");
    assert.equal(session.turnRunning, false);
    assert.equal((await session.prompt("continue")).stopReason, "end_turn");
    clearInterval(keepAlive);
    await session.close();
    const { records } = store.read(session.threadId);
    assert.deepEqual(
      records.flatMap((r) => (r.kind === "session_open" ? [r.origin] : [])),
      ["new", "load"],
    );
    // the traffic of both agent processes, one file, 0600, with the prompts and the load
    const path = join(store.layout.trafficDir, `${session.threadId}.ndjson`);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const methods = (await readTraffic(path)).entries.flatMap((e) =>
      e.d === "send" && typeof e.m?.method === "string" ? [e.m.method] : [],
    );
    for (const m of ["initialize", "session/new", "session/prompt", "session/cancel", "session/load"])
      assert.ok(methods.includes(m), `${m} in ${methods.join(", ")}`);
  }));

test("an agent that dies mid-turn is reported once, and restart brings the thread back", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const agentJs = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
    const spec = { id: "fake-stdio", displayName: "Fake stdio", command: process.execPath, args: [agentJs] };
    const session = await ThreadSession.start({
      store,
      agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
      cwd: dir,
      live: { flushMs: 0 },
      createRuntime: () => createAgentRuntime({ agent: spec, cwd: dir }),
    });
    const exits: AgentExit[] = [];
    session.onAgentExit((e) => exits.push(e));
    const stderr: string[] = [];
    session.onTraffic((e) => e.direction === "stderr" && stderr.push(e.text));
    const result = await session.prompt("die");
    assert.equal(result.stopReason, "error");
    assert.match(result.error ?? "", /exited \(code 7/);
    assert.equal(exits.length, 1);
    assert.match(exits[0]!.message, /Fake stdio: agent exited \(code 7, signal null\)/);
    assert.ok(exits[0]!.stderrTail.includes("bye from stderr"));
    assert.ok(stderr.includes("bye from stderr"));
    assert.equal(session.agentAlive, false);
    assert.equal(await session.restart(), "load");
    assert.equal(session.agentAlive, true);
    assert.equal((await session.prompt("hello")).stopReason, "end_turn");
    await session.close();
  }));

test("traffic files keep secrets and env values out", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const script: FakeAgentScript = {
      async prompt(t) {
        await t.say("ok");
        return "end_turn";
      },
    };
    const session = await ThreadSession.start({
      store,
      agent: agentRef,
      cwd: dir,
      createRuntime: () =>
        startFake(script, {
          cwd: dir,
          mcpServers: [{ name: "m", command: "/bin/m", args: [], env: [{ name: "TOKEN", value: "plain-value-123" }] }],
        }),
    });
    await session.prompt("use the key sk-abcdefghijklmnopqrstuvwxyz0123 please");
    await session.close();
    const text = JSON.stringify(
      (await readTraffic(join(store.layout.trafficDir, `${session.threadId}.ndjson`))).entries,
    );
    assert.ok(!text.includes("sk-abcdefghijklmnopqrstuvwxyz0123"));
    assert.ok(!text.includes("plain-value-123"));
    assert.ok(text.includes("[REDACTED]"));
  }));
