// #35 item 7, the registry area on the engine requests (core/engine/requests-registry.ts): an install names a
// registry agent id and nothing else. The engine reads the registry itself and installs that entry at its version; a
// URL, a path or a package spec in the id is refused before anything is read, an id the registry does not list is
// refused before anything is downloaded, and neither writes anything. Offline, the cached registry is used (with a
// warning) and an install that cannot download says why and keeps nothing.
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { EngineProgress } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { agentsLayout } from "../../../../src/core/registry/layout";
import { fakeAgentArchives } from "../../../fixtures/registry/archives";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { registryFixture } from "./registry-fixture";
import { connectHost } from "../../../../src/core/host/client";
import { writeHomeSettings } from "../../../../src/core/store/home-settings";
import { withCliHost } from "../../../fixtures/host/cli-host";

const posix = { skip: process.platform === "win32" ? "the fake agent's launcher is a shell script" : false };

/** The files the agents folder holds besides the registry's cache: none when nothing was installed or staged. */
const installedFiles = (home: string) =>
  existsSync(agentsLayout(home).root)
    ? readdirSync(agentsLayout(home).root, { recursive: true, withFileTypes: true })
        .filter((e) => !e.isDirectory() && e.name !== "registry-cache.json")
        .map((e) => join(e.parentPath, e.name))
    : [];

test("registry.install refuses a URL, a path, a package spec or an unknown id: nothing fetched or written", () =>
  withTmpDir("acp-engine-reg-", async (dir) => {
    const home = join(dir, "home");
    const { reg, engine, close } = await registryFixture(home);
    try {
      const archive = join(dir, "agent.tar.gz");
      writeFileSync(archive, fakeAgentArchives("1.0.0").tarGz.bytes);
      const notIds = [
        reg.fileUrl("fake-agent-1.0.0.tar.gz"),
        "https://evil.example/agent.tgz",
        "file:///tmp/agent.tgz",
        archive,
        "../fake",
        "./fake",
        "fake@1.0.0",
        "fake@latest",
        "@evil/fake",
        "@agentclientprotocol/claude-agent-acp@0.1.0",
        "fake==1.0.0",
        "npx fake",
        "sh -c id",
        "",
      ];
      for (const agentId of notIds) {
        await assert.rejects(
          engine.call({ op: "registry.install", agentId }),
          (err: unknown) =>
            err instanceof AcpThreadsError &&
            err.code === "usage" &&
            /registry\.install: 'agentId' must be a registry agent id/.test(err.message),
          agentId,
        );
      }
      await assert.rejects(engine.call({ op: "registry.install", agentId: 7 } as never), /'agentId' must be a string/);
      await assert.rejects(engine.call({ op: "registry.install" } as never), /'agentId' must be a string/);
      assert.deepEqual(reg.requests, [], "the registry was not even read");
      // an id the registry does not list: the registry is read, nothing is downloaded
      const warned: EngineProgress[] = [];
      await assert.rejects(
        engine.call({ op: "registry.install", agentId: "nope" }, { onProgress: (p) => warned.push(p) }),
        (err: unknown) =>
          err instanceof AcpThreadsError &&
          err.code === "not_found" &&
          /no agent 'nope' in the registry/.test(err.message),
      );
      // an entry the registry lists but that fails its rules is named, not installed
      await assert.rejects(engine.call({ op: "registry.install", agentId: "Broken" }), {
        code: "corrupt",
        message: /the registry's entry 'Broken' is invalid/,
      });
      assert.deepEqual(reg.requests, ["/registry.json", "/registry.json"], "only the registry itself");
      assert.deepEqual(warned, [], "the network's copy: no warning");
      assert.deepEqual(installedFiles(home), [], "nothing installed, no staging folder");
      assert.deepEqual(await engine.call({ op: "agents.installed" }), []);
    } finally {
      await close();
    }
  }));

test("registry.install installs the registry's entry at its version, once; update and remove by id", posix, () =>
  withTmpDir("acp-engine-reg-", async (dir) => {
    const home = join(dir, "home");
    const { reg, engine, toV2, close } = await registryFixture(home);
    try {
      const progress: EngineProgress[] = [];
      const first = await engine.call(
        { op: "registry.install", agentId: "fake" },
        { onProgress: (p) => progress.push(p) },
      );
      assert.deepEqual([first.agent.version, first.already], ["1.0.0", false]);
      assert.equal(first.agent.registryUrl, reg.url, "recorded with the registry the engine read");
      assert.deepEqual(progress[0], { t: "step", message: "Installing Fake fake 1.0.0…" });
      assert.ok(progress.some((p) => p.t === "install" && p.phase === "download"));
      assert.deepEqual(progress.at(-1), {
        t: "install",
        phase: "done",
        message: "Fake fake 1.0.0 installed",
        fraction: 1,
      });
      const downloads = reg.requests.filter((r) => r !== "/registry.json").length;
      assert.deepEqual(await engine.call({ op: "registry.install", agentId: "fake" }), {
        agent: first.agent,
        already: true,
      });
      assert.equal(reg.requests.filter((r) => r !== "/registry.json").length, downloads, "not downloaded again");
      const again = await engine.call({ op: "registry.install", agentId: "fake", reinstall: true });
      assert.equal(again.already, false);

      toV2();
      const listing = await engine.call({ op: "registry.list" });
      assert.deepEqual(listing.updates, { fake: "2.0.0" });
      assert.deepEqual(
        listing.installed.map((a) => a.version),
        ["1.0.0"],
      );
      await assert.rejects(engine.call({ op: "registry.update", agentId: "other" }), {
        code: "not_found",
        message: "agent 'other' is not installed",
      });
      assert.deepEqual(await engine.call({ op: "registry.update", agentId: "fake" }), {
        updates: [{ id: "fake", version: "1.0.0", to: "2.0.0" }],
      });
      assert.deepEqual(await engine.call({ op: "registry.update" }), {
        updates: [{ id: "fake", version: "2.0.0" }],
      });
      // an id that is not installed is not a folder to delete
      assert.deepEqual(await engine.call({ op: "registry.remove", agentId: ".." }), { removed: false });
      assert.ok(existsSync(agentsLayout(home).agentDir("fake")));
      assert.deepEqual(await engine.call({ op: "registry.remove", agentId: "fake" }), { removed: true });
      assert.equal(existsSync(agentsLayout(home).agentDir("fake")), false);
      assert.deepEqual(await engine.call({ op: "registry.update" }), { updates: [] });
    } finally {
      await close();
    }
  }),
);

test("registry requests offline: the cached registry with a warning; an install that cannot download keeps nothing", () =>
  withTmpDir("acp-engine-reg-", async (dir) => {
    const home = join(dir, "home");
    const { reg, engine, close } = await registryFixture(home);
    try {
      assert.equal((await engine.call({ op: "registry.list" })).source, "network");
      reg.setDown(true);
      const warned: EngineProgress[] = [];
      const cached = await engine.call({ op: "registry.list" }, { onProgress: (p) => warned.push(p) });
      assert.equal(cached.source, "cache");
      assert.deepEqual(
        cached.index.agents.map((a) => a.id),
        ["fake"],
      );
      assert.equal(warned.length, 1);
      assert.match(
        (warned[0] as { message: string }).message,
        /could not read the registry at .*HTTP 503.*using the copy of/,
      );
      await assert.rejects(engine.call({ op: "registry.install", agentId: "fake" }), /503/);
      assert.deepEqual(installedFiles(home), [], "nothing installed, no staging folder");
    } finally {
      await close();
    }
  }));

test("agents.import refuses a relative folder or a partial agent spec, and writes no thread", () =>
  withTmpDir("acp-engine-reg-", async (dir) => {
    const home = join(dir, "home");
    const { engine, close } = await registryFixture(home);
    try {
      const spec = { id: "x", displayName: "X", command: process.execPath, args: [] };
      const bad: [unknown, RegExp][] = [
        [{ op: "agents.import", spec, listFrom: "." }, /agents\.import: 'listFrom' must be an absolute path/],
        [{ op: "agents.import", spec, listFrom: dir, cwd: "rel" }, /agents\.import: 'cwd' must be an absolute path/],
        [{ op: "agents.import", spec: { id: "x", command: "sh" }, listFrom: dir }, /'spec' must be an agent spec/],
        [{ op: "agents.import", spec, listFrom: dir, dryRun: "no" }, /'dryRun' must be true or false/],
      ];
      for (const [req, why] of bad)
        await assert.rejects(engine.call(req as never), { code: "usage", message: why }, JSON.stringify(req));
      assert.equal(existsSync(join(home, "threads")), false, "no thread written");
    } finally {
      await close();
    }
  }));

test(
  "over the host's socket: the host reads its own registry (the home's setting), refuses a URL the same",
  posix,
  () =>
    withCliHost("acp-host-reg-", async ({ home }) => {
      const { reg, close } = await registryFixture(home);
      const conn = await connectHost({ home, client: "registry test" });
      assert.ok(conn);
      try {
        writeHomeSettings(home, { registryUrl: reg.url });
        const remote = conn.asEngine;
        await assert.rejects(remote.call({ op: "registry.install", agentId: reg.fileUrl("fake-agent-1.0.0.tar.gz") }), {
          code: "usage",
          message: /'agentId' must be a registry agent id/,
        });
        assert.deepEqual(reg.requests, [], "nothing read");
        const listing = await remote.call({ op: "registry.list" });
        assert.deepEqual(
          [listing.source, listing.url, listing.index.agents.map((a) => a.id)],
          ["network", reg.url, ["fake"]],
        );
        const progress: EngineProgress[] = [];
        const done = await remote.call(
          { op: "registry.install", agentId: "fake" },
          { onProgress: (p) => progress.push(p) },
        );
        assert.deepEqual([done.agent.id, done.agent.version, done.already], ["fake", "1.0.0", false]);
        assert.deepEqual(progress[0], { t: "step", message: "Installing Fake fake 1.0.0…" });
        assert.equal(progress.at(-1)?.t, "install");
        assert.deepEqual(await remote.call({ op: "agents.installed" }), [done.agent]);
        assert.deepEqual(await remote.call({ op: "registry.remove", agentId: "fake" }), { removed: true });
      } finally {
        conn.close();
        await close();
      }
    }),
);
