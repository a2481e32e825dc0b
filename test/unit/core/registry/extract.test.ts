import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { resolveAgent } from "../../../../src/core/acp/agent-registry";
import {
  compareSemver,
  installAgent,
  installedSpecForAsync,
  listInstalled,
  registryPlatformOf,
  type RegistryAgent,
} from "../../../../src/core/registry";
import { archiveKind, extractArchive } from "../../../../src/core/registry/extract";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { binaryEntry, zipOf } from "../../../fixtures/registry/archives";
import { start } from "../../../fixtures/registry/server";

test("archive kinds come from the URL path; platforms map to the registry's names", () => {
  assert.equal(archiveKind("https://x/a.tar.gz?x=1"), "tar.gz");
  assert.equal(archiveKind("https://x/a.TGZ"), "tar.gz");
  assert.equal(archiveKind("https://x/a.tbz2"), "tar.bz2");
  assert.equal(archiveKind("https://x/a.zip"), "zip");
  assert.equal(archiveKind("https://x/agent"), "raw");
  assert.equal(registryPlatformOf("linux", "x64"), "linux-x86_64");
  assert.equal(registryPlatformOf("darwin", "arm64"), "darwin-aarch64");
  assert.equal(registryPlatformOf("win32", "x64"), "windows-x86_64");
  assert.equal(registryPlatformOf("freebsd", "x64"), undefined);
  assert.ok(compareSemver("1.10.0", "1.9.9") > 0);
  assert.ok(compareSemver("2.0.0-rc.1", "2.0.0") < 0);
  assert.ok(compareSemver("2.0.0-rc.10", "2.0.0-rc.9") > 0);
  assert.equal(compareSemver("1.0.0+build", "1.0.0"), 0);
});

test("a zip keeps folders and the unix mode; an entry climbing out is refused", () =>
  withTmpDir("reg-zip-", async (dir) => {
    const zip = join(dir, "a.zip");
    writeFileSync(
      zip,
      zipOf([
        { name: "sub/run", data: "#!/bin/sh\n", mode: 0o755 },
        { name: "sub/data.txt", data: "x".repeat(5000) },
      ]),
    );
    extractArchive(zip, "zip", join(dir, "out"), "./sub/run");
    assert.equal(readFileSync(join(dir, "out/sub/data.txt"), "utf8"), "x".repeat(5000));
    if (process.platform !== "win32") assert.equal(statSync(join(dir, "out/sub/run")).mode & 0o777, 0o755);
    writeFileSync(zip, zipOf([{ name: "../evil", data: "no" }]));
    assert.throws(() => extractArchive(zip, "zip", join(dir, "out2"), "./x"), /'\.\.\/evil' points outside/);
    assert.equal(existsSync(join(dir, "evil")), false);
  }));

test("a raw binary is kept under its cmd's name and made executable", () =>
  withTmpDir("reg-raw-", async (home) => {
    const reg = await start({ files: { "agent-linux": "#!/bin/sh\necho raw\n" } });
    try {
      const entry = binaryEntry("raw", "0.1.0", { url: reg.fileUrl("agent-linux"), cmd: "./bin/raw-agent" });
      const installed = await installAgent(entry as unknown as RegistryAgent, {
        dataHome: home,
        registryUrl: reg.url,
        platform: "linux-x86_64",
      });
      assert.equal(installed.command, join(installed.dir, "bin/raw-agent"));
      assert.equal(readFileSync(installed.command, "utf8"), "#!/bin/sh\necho raw\n");
      if (process.platform !== "win32") assert.ok(statSync(installed.command).mode & 0o100);
      assert.deepEqual(readdirSync(installed.dir), ["bin"]); // the download itself is not kept
    } finally {
      await reg.close();
    }
  }));

test("resolveAgent: a custom agent wins over an installed one, an installed one over a preset", () =>
  withTmpDir("reg-resolve-", async (home) => {
    const reg = await start({ files: { gem: "#!/bin/sh\n" } });
    try {
      const entry = binaryEntry("gemini", "9.0.0", { url: reg.fileUrl("gem"), cmd: "./gemini" });
      const installed = await installAgent(entry as unknown as RegistryAgent, {
        dataHome: home,
        registryUrl: reg.url,
        platform: "linux-x86_64",
      });
      const lookup = (id: string) => installedSpecForAsync(home, id);
      const { spec: asInstalled } = await resolveAgent("gemini", { cwd: home, env: { PATH: "" }, installed: lookup });
      assert.deepEqual(asInstalled, { id: "gemini", displayName: "Fake gemini", command: installed.command, args: [] });
      const custom = { gemini: { command: installed.command, args: ["--mine"] } };
      assert.deepEqual((await resolveAgent("gemini", { cwd: home, custom, installed: lookup })).spec.args, ["--mine"]);
      await assert.rejects(() => resolveAgent("gemini", { cwd: home, env: { PATH: "" } }), /not found/); // the preset
    } finally {
      await reg.close();
    }
  }));

test("a uvx agent without uv on PATH: a clear error naming what to install, nothing kept", () =>
  withTmpDir("reg-uv-", async (home) => {
    const entry = {
      id: "py-agent",
      name: "Py",
      version: "1.0.0",
      description: "python agent",
      distribution: { uvx: { package: "py-agent==1.0.0" } },
    };
    await assert.rejects(
      installAgent(entry, { dataHome: home, registryUrl: "x", env: { PATH: join(home, "nothing") } }),
      /installing py-agent==1\.0\.0 needs uv on PATH: install it/,
    );
    assert.deepEqual(listInstalled(home), []);
    assert.equal(existsSync(join(home, "agents/py-agent/1.0.0")), false);
  }));
