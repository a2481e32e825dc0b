// #35 item 7, resolving an agent on the engine requests (requests-agent-resolve.ts): `agents.resolve` gives the spec
// `resolveAgent` gives with the engine's data home and environment (an agent installed from the registry, a preset, a
// command line; each also stated literally), with its errors (an unknown name, a program not on PATH) word for word,
// PATH being the engine's environment's; with `allowMissing` a missing program is `found: false`. `agents.which`
// finds a spec's program on the engine's PATH with the spec's env over it. Hostile: resolving is not starting: a
// program named in a request is never run.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { resolveAgent } from "../../../../src/core/acp/agent-registry";
import { localEngine } from "../../../../src/core/engine/local";
import { installedSpecForAsync, updateInstalled } from "../../../../src/core/registry/installed";
import type { InstalledAgent } from "../../../../src/core/registry/types";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { outcome, withSocketEngine } from "./helpers";
import { withCliHost } from "../../../fixtures/host/cli-host";
import type { Engine, EngineRequest } from "../../../../src/core/engine/requests";
import type { AgentSpec } from "../../../../src/core/model/agent";

const posix = { skip: process.platform === "win32" ? "the stand-in programs are sh scripts" : false };

/** An executable sh script at `path` that leaves `marker` behind when it runs. */
function script(path: string, marker: string): string {
  writeFileSync(path, `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A data home with the registry agent `mine` installed (with its entry's env), a bin folder, and the engine. */
function world(dir: string) {
  const home = join(dir, "home");
  const bin = join(dir, "bin");
  const work = join(dir, "work");
  for (const d of [bin, work, join(home, "agents")]) mkdirSync(d, { recursive: true });
  const marker = join(dir, "ran");
  const installed: InstalledAgent = {
    id: "mine",
    name: "Mine",
    version: "1.0.0",
    description: "an installed agent",
    kind: "binary",
    dir: join(home, "agents", "mine", "1.0.0"),
    command: script(join(bin, "mine-acp"), marker),
    args: ["--acp"],
    env: { MINE_MODE: "acp" },
    registryUrl: "https://example.invalid/registry.json",
    installedAt: "2026-12-01T00:00:00.000Z",
  };
  updateInstalled(home, (agents) => agents.push(installed));
  const env = { PATH: bin };
  return { home, bin, work, marker, env, engine: localEngine({ home, env }) };
}

test("agents.resolve gives resolveAgent's spec: an installed agent, a preset, a command line", posix, () =>
  withTmpDir("acp-engine-resolve-", async (dir) => {
    const { home, bin, work, marker, env, engine } = world(dir);
    script(join(bin, "pi-acp"), marker); // the preset pi's program, on the engine's PATH
    script(join(work, "agent.sh"), marker);
    const reference = async (agent: string) =>
      (await resolveAgent(agent, { cwd: work, env, installed: (id) => installedSpecForAsync(home, id) })).spec;
    for (const agent of ["mine", "pi", "./agent.sh --flag 'a b'", `${join(bin, "pi-acp")} x`, "pi-acp --x"]) {
      const reply = await engine.call({ op: "agents.resolve", agent, cwd: work });
      assert.deepStrictEqual(reply, { spec: await reference(agent), found: true }, agent);
    }
    // the programs, stated: the preset's and a name's on the engine's PATH, a path as given
    const program = async (agent: string) => {
      const { spec } = await engine.call({ op: "agents.resolve", agent, cwd: work });
      return [spec.id.replace(/:[0-9a-f]{6}$/, ":#"), spec.displayName, spec.command, spec.args];
    };
    const piAcp = join(bin, "pi-acp");
    assert.deepEqual(await program("pi"), ["pi", "Pi", piAcp, []]);
    assert.deepEqual(await program(`${piAcp} x`), ["pi-acp:#", "pi-acp", piAcp, ["x"]]);
    assert.deepEqual(await program("pi-acp --x"), ["pi-acp:#", "pi-acp", piAcp, ["--x"]]);
    const mine = await engine.call({ op: "agents.resolve", agent: "mine", cwd: work });
    assert.deepEqual(mine.spec, {
      id: "mine",
      displayName: "Mine",
      command: join(bin, "mine-acp"),
      args: ["--acp"],
      env: { MINE_MODE: "acp" },
    });
    const line = await engine.call({ op: "agents.resolve", agent: "./agent.sh --flag 'a b'", cwd: work });
    assert.deepEqual([line.spec.command, line.spec.args], [join(work, "agent.sh"), ["--flag", "a b"]]);
    assert.match(line.spec.id, /^agent\.sh:[0-9a-f]{6}$/);
    assert.equal(existsSync(marker), false, "nothing was run");
  }),
);

test("agents.resolve: an unknown name and a program not on PATH are resolveAgent's errors; allowMissing says found: false", () =>
  withTmpDir("acp-engine-resolve-", async (dir) => {
    const { home, work, env, engine } = world(dir);
    // what resolveAgent gives, as `outcome` reports a call's
    const reference = (agent: string) =>
      outcome(
        {
          call: () => resolveAgent(agent, { cwd: work, env, installed: (id) => installedSpecForAsync(home, id) }),
        } as Engine,
        { op: "agents.resolve", agent, cwd: work },
      );
    const errors = {
      nope: "usage",
      codex: "agent_not_found",
      "./missing.sh --x": "agent_not_found",
      "no-such-program --x": "agent_not_found",
      "node 'open": "usage",
    };
    for (const [agent, code] of Object.entries(errors)) {
      const got = await outcome(engine, { op: "agents.resolve", agent, cwd: work });
      assert.deepStrictEqual(got, await reference(agent), agent);
      assert.ok("error" in (got as object), `${agent}: an error`);
      assert.equal((got as { error: unknown[] }).error[1], code, agent);
    }
    const unknown = (await outcome(engine, { op: "agents.resolve", agent: "nope", cwd: work })) as { error: unknown[] };
    assert.deepEqual(unknown.error.slice(1), [
      "usage",
      "unknown agent 'nope' (known: codex, claude, gemini, opencode, pi); pass a command line to run any ACP agent",
    ]);
    const codex = await outcome(engine, { op: "agents.resolve", agent: "codex", cwd: work });
    assert.deepEqual((codex as { error: unknown[] }).error[1], "agent_not_found");
    // allowMissing: the spec with its command as configured, not found; an unknown name is still an error
    const missing = await engine.call({ op: "agents.resolve", agent: "codex", cwd: work, allowMissing: true });
    assert.equal(missing.found, false);
    assert.deepEqual([missing.spec.id, missing.spec.command], ["codex", "codex-acp"]);
    const line = await engine.call({ op: "agents.resolve", agent: "./missing.sh --x", cwd: work, allowMissing: true });
    assert.deepEqual([line.spec.displayName, line.spec.command, line.found], ["missing.sh", "./missing.sh", false]);
    await assert.rejects(engine.call({ op: "agents.resolve", agent: "nope", cwd: work, allowMissing: true }), {
      code: "usage",
    });
  }));

test("agents.which: a spec's program on the engine's PATH with the spec's env over it, or null", posix, () =>
  withTmpDir("acp-engine-which-", async (dir) => {
    const { bin, work, marker, engine } = world(dir);
    const other = join(dir, "other");
    mkdirSync(other);
    script(join(other, "theirs-acp"), marker);
    const spec = { id: "theirs", displayName: "Theirs", command: "theirs-acp", args: [] };
    const which = async (s: typeof spec & { env?: Record<string, string> }) =>
      (await engine.call({ op: "agents.which", spec: s, cwd: work })).program;
    assert.equal(await which(spec), null, "not on the engine's PATH");
    assert.equal(await which({ ...spec, env: { PATH: other } }), join(other, "theirs-acp"), "the spec's PATH");
    assert.equal(await which({ ...spec, command: "mine-acp" }), join(bin, "mine-acp"));
    script(join(work, "local.sh"), marker);
    assert.equal(await which({ ...spec, command: "./local.sh" }), join(work, "local.sh"), "relative to cwd");
    assert.equal(await which({ ...spec, command: join(dir, "none") }), null);
    assert.equal(existsSync(marker), false, "nothing was run");
  }),
);

test("hostile: a request naming any program only looks it up; nothing is run, over the host's socket too", posix, () =>
  withCliHost("acp-engine-resolve-", async ({ dir, home }) => {
    const { work, marker } = world(dir);
    const local = localEngine({ home }); // the host's environment: this process's
    const evil = script(join(dir, "evil"), marker);
    // a generic entry script: its package.json is read for the name, the script is not run
    mkdirSync(join(dir, "pkg", "dist"), { recursive: true });
    writeFileSync(join(dir, "pkg", "package.json"), JSON.stringify({ name: "@x/evil-acp" }));
    const entry = script(join(dir, "pkg", "dist", "index.js"), marker);
    const asks: EngineRequest[] = [
      { op: "agents.resolve", agent: `${evil} --now`, cwd: work },
      { op: "agents.resolve", agent: `${entry} --acp`, cwd: work },
      { op: "agents.resolve", agent: `sh -c 'touch ${marker}'`, cwd: work },
      { op: "agents.resolve", agent: "mine", cwd: work },
      { op: "agents.resolve", agent: "nope", cwd: work },
      { op: "agents.resolve", agent: "../../bin/sh", cwd: work, allowMissing: true },
      { op: "agents.which", spec: { id: "e", displayName: "E", command: evil, args: ["--now"] }, cwd: work },
    ];
    const replies: unknown[] = [];
    await withSocketEngine(home, async (remote) => {
      for (const req of asks) {
        replies.push(await outcome(local, req));
        assert.deepStrictEqual(await outcome(remote, req), replies.at(-1), JSON.stringify(req));
      }
    });
    assert.equal(existsSync(marker), false, "nothing was run");
    const spec = (i: number) => (replies[i] as { reply: { spec: AgentSpec } }).reply.spec;
    assert.deepEqual([spec(0).command, spec(0).args], [evil, ["--now"]]);
    assert.deepEqual([spec(1).displayName, spec(1).command], ["evil-acp", entry]);
    assert.equal(spec(3).command, join(dir, "bin", "mine-acp"), "the installed agent of the host's data home");
    assert.deepEqual((replies[6] as { reply: unknown }).reply, { program: evil });
    execFileSync(evil); // the check above can see a run: this one leaves the marker
    assert.equal(existsSync(marker), true);
  }),
);
