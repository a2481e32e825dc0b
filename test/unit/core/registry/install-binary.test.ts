import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { resolveAgent } from "../../../../src/core/acp/agent-registry";
import {
  agentsLayout,
  fetchRegistry,
  installAgent,
  installedSpecForAsync,
  listInstalled,
  uninstallAgent,
  updateAgent,
  updateFor,
  type InstallProgress,
  type RegistryAgent,
} from "../../../../src/core/registry";
import { collect, outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { binaryEntry, fakeAgentArchives } from "../../../fixtures/registry/archives";
import { start } from "../../../fixtures/registry/server";

const skip = process.platform === "win32" ? "the fake agent's launcher is a shell script" : false;

async function oneTurn(dataHome: string, cwd: string, id: string): Promise<string> {
  const { spec } = await resolveAgent(id, { cwd, installed: (x) => installedSpecForAsync(dataHome, x) });
  const rt = createAgentRuntime({ agent: spec, cwd });
  try {
    const { sessionId } = await rt.ensureSession();
    return outputText(await collect(rt.runTurn(sessionId, "hello")));
  } finally {
    await rt.close();
  }
}

test("a binary agent: install (tar.gz, sha256), start it by id, update to the zip build, uninstall", { skip }, () =>
  withTmpDir("reg-bin-", async (home) => {
    const v1 = fakeAgentArchives("1.0.0");
    const v2 = fakeAgentArchives("2.0.0");
    const reg = await start({ files: { [v1.tarGz.name]: v1.tarGz.bytes, [v2.zip.name]: v2.zip.bytes } });
    try {
      reg.setAgents([
        binaryEntry("fake", "1.0.0", {
          url: reg.fileUrl(v1.tarGz.name),
          cmd: "./bin/fake-agent",
          sha256: v1.tarGz.sha256,
        }),
      ]);
      const listing = await fetchRegistry({ url: reg.url, dataHome: home });
      const progress: InstallProgress[] = [];
      const installed = await installAgent(listing.index.agents[0]!, {
        dataHome: home,
        registryUrl: reg.url,
        onProgress: (p) => progress.push(p),
      });
      assert.equal(installed.kind, "binary");
      assert.equal(installed.dir, agentsLayout(home).versionDir("fake", "1.0.0"));
      assert.equal(installed.command, join(installed.dir, "bin/fake-agent"));
      assert.deepEqual([...new Set(progress.map((p) => p.phase))], ["download", "verify", "extract", "probe", "done"]);
      assert.deepEqual(installed.auth, [], "the fake agent advertises no auth methods");
      assert.deepEqual(readdirSync(agentsLayout(home).agentDir("fake")), ["1.0.0"]); // no staging left
      assert.equal(await oneTurn(home, home, "fake"), "echo: hello");

      reg.setAgents([
        binaryEntry("fake", "2.0.0", { url: reg.fileUrl(v2.zip.name), cmd: "./fake-agent", sha256: v2.zip.sha256 }),
      ]);
      const next = await fetchRegistry({ url: reg.url, dataHome: home });
      assert.equal(updateFor(listInstalled(home)[0]!, next.index)?.version, "2.0.0");
      const updated = await updateAgent(listInstalled(home)[0]!, next.index, { dataHome: home, registryUrl: reg.url });
      assert.equal(updated?.version, "2.0.0");
      assert.deepEqual(readdirSync(agentsLayout(home).agentDir("fake")), ["2.0.0"]); // the old version dropped
      assert.equal(updateFor(listInstalled(home)[0]!, next.index), null);
      assert.equal(await oneTurn(home, home, "fake"), "echo: hello");

      assert.equal(uninstallAgent("fake", home), true);
      assert.equal(existsSync(agentsLayout(home).agentDir("fake")), false);
      assert.deepEqual(listInstalled(home), []);
      assert.equal(uninstallAgent("fake", home), false);
      await assert.rejects(
        () => resolveAgent("fake", { cwd: home, installed: (x) => installedSpecForAsync(home, x) }),
        /unknown agent/,
      );
    } finally {
      await reg.close();
    }
  }),
);

test("a wrong sha256 is refused and nothing is kept; the installed version stays", { skip }, () =>
  withTmpDir("reg-sha-", async (home) => {
    const v1 = fakeAgentArchives("1.0.0");
    const reg = await start({ files: { [v1.tarGz.name]: v1.tarGz.bytes } });
    try {
      const url = reg.fileUrl(v1.tarGz.name);
      const ok = binaryEntry("fake", "1.0.0", { url, cmd: "./bin/fake-agent", sha256: v1.tarGz.sha256 });
      await installAgent(ok as unknown as RegistryAgent, { dataHome: home, registryUrl: reg.url });
      const bad = binaryEntry("fake", "1.1.0", { url, cmd: "./bin/fake-agent", sha256: "0".repeat(64) });
      await assert.rejects(
        installAgent(bad as unknown as RegistryAgent, { dataHome: home, registryUrl: reg.url }),
        /sha256 is [0-9a-f]{64}, the registry says 0{64}; the download was discarded/,
      );
      assert.deepEqual(readdirSync(agentsLayout(home).agentDir("fake")), ["1.0.0"]);
      assert.equal(listInstalled(home)[0]!.version, "1.0.0");
      const fresh = binaryEntry("other", "1.0.0", { url, cmd: "./bin/fake-agent", sha256: "1".repeat(64) });
      await assert.rejects(installAgent(fresh as unknown as RegistryAgent, { dataHome: home, registryUrl: reg.url }));
      assert.deepEqual(readdirSync(agentsLayout(home).agentDir("other")), []);
      assert.deepEqual(
        listInstalled(home).map((a) => a.id),
        ["fake"],
      );
    } finally {
      await reg.close();
    }
  }),
);

test("no build for this platform: a clear error listing the platforms offered", () =>
  withTmpDir("reg-plat-", async (home) => {
    const entry = binaryEntry("fake", "1.0.0", { url: "http://127.0.0.1:9/x.tar.gz", cmd: "./x" }, [
      "windows-x86_64",
      "darwin-aarch64",
    ]);
    await assert.rejects(
      installAgent(entry as unknown as RegistryAgent, { dataHome: home, registryUrl: "x", platform: "linux-x86_64" }),
      /has no build for linux-x86_64 \(offered: windows-x86_64, darwin-aarch64\)/,
    );
    assert.equal(existsSync(agentsLayout(home).agentDir("fake")), false);
  }));

test("a cmd that escapes the install folder is refused before any download", () =>
  withTmpDir("reg-escape-", async (home) => {
    const reg = await start();
    try {
      for (const cmd of ["../../evil", "/bin/sh"]) {
        const entry = binaryEntry("esc", "1.0.0", { url: reg.fileUrl("none.tar.gz"), cmd });
        await assert.rejects(
          installAgent(entry as unknown as RegistryAgent, { dataHome: home, registryUrl: reg.url }),
          /points outside its install folder/,
        );
      }
      const badId = binaryEntry("../up", "1.0.0", { url: reg.fileUrl("none.tar.gz"), cmd: "./a" });
      await assert.rejects(
        installAgent(badId as unknown as RegistryAgent, { dataHome: home, registryUrl: reg.url }),
        /not a valid registry entry: id '\.\.\/up' must match/,
      );
      const badVersion = binaryEntry("ok", "../../1.0.0", { url: reg.fileUrl("none.tar.gz"), cmd: "./a" });
      await assert.rejects(
        installAgent(badVersion as unknown as RegistryAgent, { dataHome: home, registryUrl: reg.url }),
        /version '\.\.\/\.\.\/1\.0\.0' is not semver/,
      );
      assert.deepEqual(reg.requests, []);
      assert.deepEqual(readdirSync(agentsLayout(home).agentDir("esc")), []);
      assert.deepEqual(listInstalled(home), []);
    } finally {
      await reg.close();
    }
  }));
