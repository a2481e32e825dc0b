import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { agentsLayout, installAgent, installedAgentSpec, listInstalled } from "../../../../src/core/registry";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

// A real, small package from the npm registry (no dependencies; bin `semver`).
const entry = {
  id: "semver-tool",
  name: "semver",
  version: "7.6.3",
  description: "a tiny npm package with a bin",
  distribution: { npx: { package: "semver@7.6.3", args: ["--coerce"] } },
};

test("an npx agent: npm install --prefix into the data home, the bin script's absolute path recorded", () =>
  withTmpDir("reg-npm-", async (home) => {
    const phases = new Set<string>();
    const installed = await installAgent(entry, {
      dataHome: home,
      registryUrl: "http://127.0.0.1/none",
      onProgress: (p) => phases.add(p.phase),
    });
    assert.equal(installed.kind, "npx");
    assert.equal(
      installed.command,
      `${agentsLayout(home).versionDir("semver-tool", "7.6.3")}/node_modules/semver/bin/semver.js`,
    );
    assert.ok(existsSync(installed.command));
    assert.deepEqual(installed.args, ["--coerce"]);
    assert.equal(installed.nodeEngine, ">=10"); // engines.node, for the engine's choice of Node
    assert.ok(phases.has("npm") && phases.has("done"));
    const spec = installedAgentSpec(listInstalled(home)[0]!);
    const out = execFileSync(process.execPath, [spec.command, ...spec.args, "v1.2"], { encoding: "utf8" });
    assert.equal(out.trim(), "1.2.0");
  }));

test("an npx package without the asked command: a clear error and nothing kept", () =>
  withTmpDir("reg-npm-bad-", async (home) => {
    const bad = { ...entry, distribution: { npx: { package: "semver@7.6.3", cmd: "nope" } } };
    await assert.rejects(
      installAgent(bad, { dataHome: home, registryUrl: "x" }),
      /semver@7\.6\.3 has no command 'nope' \(its commands: semver\)/,
    );
    assert.equal(existsSync(agentsLayout(home).versionDir("semver-tool", "7.6.3")), false);
    assert.deepEqual(listInstalled(home), []);
  }));
