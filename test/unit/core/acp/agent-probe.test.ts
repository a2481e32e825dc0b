import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { doctor } from "../../../../src/core/acp/agent-doctor";
import { authKind, probeAgent, probeLines } from "../../../../src/core/acp/agent-probe";
import type { AgentSpec } from "../../../../src/core/model/agent";
import { fakeNodePackage, STDIO_AGENT_JS } from "../../../fixtures/fake-agents/node-package";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-probe-", fn);
const fake = (...args: string[]): AgentSpec => ({
  id: "fake",
  displayName: "Fake",
  command: process.execPath,
  args: [STDIO_AGENT_JS, ...args],
});

test("the probe reports what initialize advertised: agentInfo, load, session and prompt capabilities, auth", () =>
  withTmp(async (cwd) => {
    const probe = await probeAgent(fake(), { cwd, env: { ...process.env, FAKE_AGENT_PROMPT_CAPS: "image" } });
    assert.equal(probe.ok, true, probe.error);
    assert.deepEqual(probe.agentInfo, { name: "fake-agent", title: "Fake Agent", version: "1.2.3" });
    assert.equal(probe.protocolVersion, 1);
    assert.equal(probe.loadSession, true);
    assert.deepEqual(probe.sessionCapabilities, ["close", "list", "resume"]);
    assert.deepEqual(probe.authMethods, []);
    const lines = probeLines(probe);
    assert.match(lines[0]!, /^agent {4}Fake Agent 1\.2\.3, ACP v1, initialize in \d+ ms$/);
    assert.equal(lines[1], "session  load, close, list, resume");
    const auth = await probeAgent(fake("auth"), { cwd });
    assert.deepEqual(auth.authMethods, [{ id: "fake-login", name: "Fake login", kind: "agent" }]);
  }));

test("the probe reports the login state the agent sends after initialize (_auth/status_update); doctor prints it", () =>
  withTmp(async (cwd) => {
    const env = { ...process.env, FAKE_AGENT_AUTH_STATUS: "Logged in as ada@example.com" };
    const probe = await probeAgent(fake(), { cwd, env, authWaitMs: 60_000 });
    assert.equal(probe.ok, true, probe.error);
    assert.deepEqual(probe.authStatus, { kind: "chat-gpt", label: "Logged in as ada@example.com" });
    assert.equal(probeLines(probe).at(-1), "login    Logged in as ada@example.com");
    const none = await probeAgent(fake(), { cwd });
    assert.equal(none.authStatus, undefined);
    assert.equal(
      probeLines(none).some((l) => l.startsWith("login")),
      false,
    );
  }));

test("a probe failure is the probe's error, never a throw: crash, silence (timeout), missing Node", () =>
  withTmp(async (cwd) => {
    const crash = await probeAgent(fake("crash-init"), { cwd });
    assert.equal(crash.ok, false);
    assert.match(crash.error ?? "", /exit/i);
    const silent: AgentSpec = { ...fake(), args: ["-e", "setInterval(() => {}, 1000)"] };
    const slow = await probeAgent(silent, { cwd, timeoutMs: 300 });
    assert.equal(slow.ok, false);
    assert.equal(slow.error, "no initialize answer within 300 ms");
    const pkg = fakeNodePackage(cwd, { engines: ">=99" });
    const noNode = await probeAgent({ ...fake(), command: pkg.bin, args: [] }, { cwd, env: { PATH: pkg.pathBin } });
    assert.equal(noNode.ok, false);
    assert.match(noNode.error ?? "", /needs Node >=99/);
  }));

test("auth method kinds: agent (default), terminal (also the legacy _meta), env_var with its variables", () => {
  assert.deepEqual(authKind({ id: "a", name: "A" }), { kind: "agent" });
  assert.deepEqual(authKind({ id: "t", name: "T", type: "terminal", args: ["--login"] }), { kind: "terminal" });
  const legacy = { id: "l", name: "L", _meta: { "terminal-auth": { command: "x" } } };
  assert.deepEqual(authKind(legacy), { kind: "terminal" });
  const envVar = { id: "e", name: "E", type: "env_var", vars: [{ name: "OPENAI_API_KEY" }] } as never;
  assert.deepEqual(authKind(envVar), { kind: "env_var", vars: ["OPENAI_API_KEY"] });
});

test("doctor probes agents in parallel, reports a failing probe per agent, and skips probes when asked", () =>
  withTmp(async (cwd) => {
    const env = { ...process.env, PATH: dirname(process.execPath) };
    const custom = {
      good: { command: process.execPath, args: [STDIO_AGENT_JS] },
      broken: { command: process.execPath, args: [STDIO_AGENT_JS, "crash-init"] },
    };
    const entries = await doctor({ cwd, env, custom, probe: true, timeoutMs: 2000 });
    const by = new Map(entries.map((e) => [e.id, e]));
    assert.equal(by.get("good")?.probe?.ok, true);
    assert.equal(by.get("good")?.probe?.agentInfo?.version, "1.2.3");
    assert.equal(by.get("broken")?.available, true);
    assert.equal(by.get("broken")?.probe?.ok, false);
    assert.equal(by.get("codex")?.available, false);
    assert.equal(by.get("codex")?.probe, undefined);
    const quick = await doctor({ cwd, env, custom, timeoutMs: 2000 });
    assert.ok(quick.every((e) => e.probe === undefined));
  }));

test("a Node-launched agent whose --version says nothing shows its agentInfo version, never Node's (#37)", () =>
  withTmp(async (cwd) => {
    // a Node installed from npm (as the `node` package): the runtime sits in a package.json of its own
    const runtime = join(cwd, "node_modules", "node");
    mkdirSync(join(runtime, "bin"), { recursive: true });
    writeFileSync(join(runtime, "package.json"), JSON.stringify({ name: "node", version: "24.21.0" }));
    const node = join(runtime, "bin", "node");
    writeFileSync(node, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    chmodSync(node, 0o755);
    const env = { ...process.env, PATH: dirname(process.execPath) };
    const custom = { scripted: { command: node, args: [STDIO_AGENT_JS] } };
    const probed = (await doctor({ cwd, env, custom, probe: true, timeoutMs: 2000 })).find((e) => e.id === "scripted");
    assert.equal(probed?.probe?.ok, true, probed?.probe?.error);
    assert.equal(probed?.version, "1.2.3", "initialize's agentInfo names the agent's version");
    const quick = (await doctor({ cwd, env, custom, timeoutMs: 2000 })).find((e) => e.id === "scripted");
    assert.notEqual(quick?.version, "24.21.0", "without a probe: the script's package at most, never Node's");
  }));
