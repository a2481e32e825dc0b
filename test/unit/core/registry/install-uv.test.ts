// uvx distributions against a fake `uv` on PATH (test/fixtures/registry/fake-uv.ts): real uv and PyPI are not
// reachable here, so this checks what we ask of uv and what we start afterwards, not uv itself.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { agentsLayout, installAgent, installedAgentSpec, listInstalled } from "../../../../src/core/registry";
import { collect, outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { writeFakeUv } from "../../../fixtures/registry/fake-uv";

const skip = process.platform === "win32" ? "the fake uv and its entry point are POSIX scripts" : false;

const entry = {
  id: "py-agent",
  name: "Py Agent",
  version: "1.4.2",
  description: "an agent distributed on PyPI",
  distribution: { uvx: { package: "py-agent==1.4.2", args: ["--acp"] } },
};

test(
  "a uvx agent: uv tool install of the pinned version into the agent's folder, its entry point started",
  { skip },
  () =>
    withTmpDir("reg-uv-", async (home) => {
      const log = join(home, "uv-calls.jsonl");
      const bin = join(home, "fake-bin");
      writeFakeUv(bin);
      const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`, FAKE_UV_LOG: log };
      const phases: string[] = [];
      const installed = await installAgent(entry, {
        dataHome: home,
        registryUrl: "http://127.0.0.1/none",
        env,
        onProgress: (p) => phases.push(p.phase),
      });
      const dir = agentsLayout(home).versionDir("py-agent", "1.4.2");
      const calls = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { argv: string[]; cwd: string; toolDir: string; binDir: string });
      assert.deepEqual(calls, [
        {
          argv: ["tool", "install", "--force", "py-agent==1.4.2"],
          cwd: dir,
          toolDir: join(dir, "tools"),
          binDir: join(dir, "bin"),
        },
      ]);
      assert.equal(installed.kind, "uvx");
      assert.equal(installed.dir, dir);
      assert.equal(installed.command, join(dir, "bin", "py-agent"));
      assert.deepEqual(installed.args, ["--acp"]);
      assert.deepEqual(installed.auth, [], "the probe started the entry point and read its authMethods");
      assert.ok(phases.includes("uv") && phases.at(-1) === "done", phases.join(","));
      assert.deepEqual(
        listInstalled(home).map((a) => [a.id, a.version, a.kind]),
        [["py-agent", "1.4.2", "uvx"]],
      );

      const rt = createAgentRuntime({ agent: installedAgentSpec(installed), cwd: home });
      try {
        const { sessionId } = await rt.ensureSession();
        assert.equal(outputText(await collect(rt.runTurn(sessionId, "hello"))), "echo: hello");
      } finally {
        await rt.close();
      }
    }),
);

test("a uvx agent without uv on PATH: a clear error that says how to get uv, nothing installed", { skip }, () =>
  withTmpDir("reg-uv-", async (home) => {
    const env = { ...process.env, PATH: join(home, "empty-bin") };
    await assert.rejects(
      installAgent(entry, { dataHome: home, registryUrl: "http://127.0.0.1/none", env }),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, "agent_not_found");
        assert.match(
          err.message,
          /installing py-agent==1\.4\.2 needs uv on PATH: install it \(https:\/\/docs\.astral\.sh\/uv\//,
        );
        return true;
      },
    );
    assert.deepEqual(listInstalled(home), []);
    assert.equal(existsSync(agentsLayout(home).versionDir("py-agent", "1.4.2")), false);
  }),
);

test("a uv failure is reported with uv's own words and keeps nothing", { skip }, () =>
  withTmpDir("reg-uv-", async (home) => {
    const bin = join(home, "fake-bin");
    writeFakeUv(bin);
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`, FAKE_UV_FAIL: "1" };
    await assert.rejects(
      installAgent(entry, { dataHome: home, registryUrl: "http://127.0.0.1/none", env }),
      /uv tool install --force py-agent==1\.4\.2 failed \(exit 2\):\nerror: No solution found when resolving dependencies/,
    );
    assert.deepEqual(listInstalled(home), []);
    assert.equal(existsSync(agentsLayout(home).versionDir("py-agent", "1.4.2")), false);
  }),
);
