import assert from "node:assert/strict";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { doctor } from "../../../../src/core/acp/agent-doctor";
import {
  commandLineAgentId,
  joinCommandLine,
  resolveAgent,
  splitCommandLine,
} from "../../../../src/core/acp/agent-registry";
import { ProtocolLog } from "../../../../src/core/acp/protocol-log";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-reg-", fn);

async function fakeBin(dir: string, name: string, script: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
  return path;
}

test("command lines split on spaces and honour quotes and escapes", () => {
  assert.deepEqual(splitCommandLine(`node "/a b/agent.js" --x='y z' c\\ d`), [
    "node",
    "/a b/agent.js",
    "--x=y z",
    "c d",
  ]);
  assert.throws(() => splitCommandLine(`node "open`), /unterminated quote/);
});

test("a preset resolves from PATH, never from a node_modules/.bin above the cwd", () =>
  withTmp(async (dir) => {
    await fakeBin(join(dir, "node_modules", ".bin"), "codex-acp", "exit 0");
    const onPath = await fakeBin(join(dir, "path-bin"), "codex-acp", "exit 0");
    const nested = join(dir, "a", "b");
    await mkdir(nested, { recursive: true });
    const { spec } = await resolveAgent("codex", { cwd: nested, env: { PATH: join(dir, "path-bin") } });
    assert.deepEqual(spec, { id: "codex", displayName: "Codex", command: onPath, args: [] });
    const gemini = await fakeBin(join(dir, "path-bin"), "gemini", "exit 0");
    const gem = async () => (await resolveAgent("gemini", { cwd: nested, env: { PATH: join(dir, "path-bin") } })).spec;
    assert.deepEqual((await gem()).args, ["--acp"]);
    assert.equal((await gem()).command, gemini);
  }));

test("custom agents and command lines become specs with absolute commands; missing ones say what to install", () =>
  withTmp(async (dir) => {
    const bin = await fakeBin(join(dir, "bin"), "my-agent", "exit 0");
    const env = { PATH: join(dir, "bin") };
    const { spec: custom } = await resolveAgent("Mine", {
      cwd: dir,
      env,
      custom: { Mine: { command: "my-agent", args: ["--acp"], env: { K: "v" } } },
    });
    assert.deepEqual(custom, { id: "Mine", displayName: "Mine", command: bin, args: ["--acp"], env: { K: "v" } });
    assert.deepEqual((await resolveAgent("my-agent --flag 'a b'", { cwd: dir, env })).spec, {
      id: commandLineAgentId("my-agent", ["my-agent", "--flag", "a b"]),
      displayName: "my-agent",
      command: bin,
      args: ["--flag", "a b"],
    });
    await assert.rejects(() => resolveAgent("opencode", { cwd: dir, env }), /not found.*npm i -g opencode-ai/);
    await assert.rejects(
      () => resolveAgent("nonsense", { cwd: dir, env }),
      (err: Error & { code?: string }) => err.code === "usage",
    );
  }));

test("resolveAgent: allowMissing gives the spec as configured, not found; installed agents are asked by name only", () =>
  withTmp(async (dir) => {
    const env = { PATH: join(dir, "none") };
    assert.deepEqual(await resolveAgent("opencode", { cwd: dir, env, allowMissing: true }), {
      spec: { id: "opencode", displayName: "OpenCode", command: "opencode", args: ["acp"] },
      found: false,
    });
    const asked: string[] = [];
    const installed = async (id: string) => {
      asked.push(id);
      return { id, displayName: "Installed", command: join(dir, "installed-agent"), args: [] };
    };
    const custom = { Mine: { command: "my-agent" } };
    const opts = { cwd: dir, env, custom, installed, allowMissing: true };
    assert.deepEqual(await resolveAgent("opencode", opts), {
      spec: { id: "opencode", displayName: "Installed", command: join(dir, "installed-agent"), args: [] },
      found: true,
    });
    assert.equal((await resolveAgent("Mine", opts)).spec.command, "my-agent", "a custom agent wins");
    assert.equal((await resolveAgent("./opencode --x", opts)).spec.command, "./opencode", "a command line");
    await assert.rejects(() => resolveAgent("node 'open", opts), /unterminated quote/);
    assert.deepEqual(asked, ["opencode"], "never asked for a custom agent's name or a command line");
  }));

test("doctor reports present presets with their version and missing ones with the problem", () =>
  withTmp(async (dir) => {
    await fakeBin(join(dir, "bin"), "opencode", 'echo "opencode 1.18.33"');
    await fakeBin(join(dir, "bin"), "codex-acp", "sleep 30");
    const entries = await doctor({ cwd: dir, env: { PATH: join(dir, "bin") } });
    const byId = new Map(entries.map((e) => [e.id, e]));
    assert.equal(byId.get("opencode")?.available, true);
    assert.equal(byId.get("opencode")?.version, "1.18.33");
    assert.equal(byId.get("codex")?.available, true);
    assert.equal(byId.get("codex")?.version, null, "codex-acp has no --version: not run");
    assert.equal(byId.get("claude")?.available, false);
    assert.match(byId.get("claude")?.problem ?? "", /claude-agent-acp/);
  }));

test("a custom agent without --version shows no version, never its error or usage text as one", () =>
  withTmp(async (dir) => {
    const bin = join(dir, "bin");
    await fakeBin(bin, "strict-agent", "echo \"error: unknown option '--version' (try 2.0 syntax)\" >&2; exit 2");
    await fakeBin(bin, "usage-agent", 'echo "usage: usage-agent [--acp]"');
    await fakeBin(bin, "good-agent", 'echo "good-agent v3.4.5"');
    // an interpreter running an agent script: the script is asked, not the interpreter
    await fakeBin(bin, "interp", 'if [ "$1" = "--version" ]; then echo "v20.1.0"; else echo "$1 agent 0.7.1"; fi');
    const custom: Record<string, { command: string; args?: string[] }> = Object.fromEntries(
      ["strict-agent", "usage-agent", "good-agent"].map((c) => [c, { command: c }]),
    );
    custom["script-agent"] = { command: "interp", args: ["agent.js"] };
    const entries = await doctor({ cwd: dir, env: { PATH: bin }, custom });
    const version = (id: string) => entries.find((e) => e.id === id)?.version;
    assert.equal(version("strict-agent"), null);
    assert.equal(version("usage-agent"), null);
    assert.equal(version("good-agent"), "3.4.5");
    assert.equal(version("script-agent"), "0.7.1");
    assert.ok(entries.filter((e) => e.id.endsWith("-agent")).every((e) => e.available && e.problem === null));
  }));

test("the protocol log keeps the newest lines within its caps", () => {
  const log = new ProtocolLog({ maxLines: 3, maxBytes: 1000 });
  for (let i = 0; i < 5; i++) log.add("recv", `line ${i}`);
  assert.deepEqual(
    log.entries().map((e) => e.text),
    ["line 2", "line 3", "line 4"],
  );
  assert.equal(log.dropped, 2);
  const small = new ProtocolLog({ maxLines: 100, maxBytes: 10 });
  small.add("send", "12345");
  small.add("send", "67890");
  small.add("stderr", "abc");
  assert.deepEqual(
    small.entries().map((e) => e.text),
    ["67890", "abc"],
  );
  assert.deepEqual(small.stderrTail(), ["abc"]);
});

test("an npm adapter's generic entry script goes by its package's name, any other command by its file name", () =>
  withTmp(async (dir) => {
    const pkg = join(dir, "node_modules", "@agentclientprotocol", "codex-acp");
    const entry = await fakeBin(join(pkg, "dist"), "index.js", "exit 0");
    await writeFile(join(pkg, "package.json"), JSON.stringify({ name: "@agentclientprotocol/codex-acp" }));
    const { spec } = await resolveAgent(`${entry} --flag`, { cwd: dir, env: { PATH: "" } });
    assert.deepEqual([spec.id.split(":")[0], spec.displayName, spec.args], ["codex-acp", "codex-acp", ["--flag"]]);
    const loose = await fakeBin(join(dir, "loose"), "index.js", "exit 0"); // no package.json above it
    assert.equal((await resolveAgent(loose, { cwd: dir, env: { PATH: "" } })).spec.displayName, "index.js");
    const named = await fakeBin(join(pkg, "bin"), "codex-acp.js", "exit 0");
    assert.equal((await resolveAgent(named, { cwd: dir, env: { PATH: "" } })).spec.displayName, "codex-acp.js");
  }));

test("agents given as a command line get an id from their whole command, not the program's name (#33)", () =>
  withTmp(async (dir) => {
    const opts = { cwd: dir, env: { PATH: dirname(process.execPath) } };
    const { spec: a } = await resolveAgent("node ./agent-a.js", opts);
    const { spec: b } = await resolveAgent("node ./agent-b.js --acp", opts);
    assert.equal(a.displayName, "node");
    assert.match(a.id, /^node:[0-9a-f]{6}$/);
    assert.notEqual(a.id, b.id, "two node agents do not share one rule set");
    assert.equal((await resolveAgent("node  './agent-a.js'", opts)).spec.id, a.id, "the same command keeps its id");
  }));

test("joinCommandLine: splitCommandLine reads back exactly the words (the editor's agent sent to the thread host)", () => {
  const words = [
    "/opt/My Agents/node",
    "/a/b.js",
    "--flag=x y",
    "it's",
    'say "hi"',
    "back\\slash",
    "",
    "$HOME;rm -rf /",
    "plain-word_1.2",
  ];
  const line = joinCommandLine(words);
  assert.deepEqual(splitCommandLine(line), words);
  assert.equal(joinCommandLine(["node", "/x/agent.js"]), "node /x/agent.js", "plain words stay as they are");
});
