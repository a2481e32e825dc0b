import assert from "node:assert/strict";
import childProcess from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { AcpThreadsError } from "../../../../src/core/errors";
import type { AgentSpec } from "../../../../src/core/model/agent";
import { listManagedNodes } from "../../../../src/core/runtime/managed";
import { nodeLaunch } from "../../../../src/core/runtime/node-launch";
import { commandNodeInfo, isNodeShebang, packageVersionOf } from "../../../../src/core/runtime/node-package";
import { fakeNodePackage } from "../../../fixtures/fake-agents/node-package";
import { countFsCalls } from "../fs-calls";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-node-", fn);
const NODE = process.versions.node;
const spec = (command: string): AgentSpec => ({ id: "fake", displayName: "Fake", command, args: ["--flag"] });

test("a .bin link leads to its package: engines, version, and that it is a node script", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=22", version: "0.101.0" });
    const info = await commandNodeInfo(pkg.bin);
    assert.equal(info.script, pkg.script);
    assert.equal(info.pkg?.enginesNode, ">=22");
    assert.equal(info.pkg?.name, "fake-node-agent");
    assert.equal(await packageVersionOf(pkg.bin), "0.101.0");
    assert.equal((await commandNodeInfo(process.execPath)).script, null, "a native binary is no script");
    assert.ok(isNodeShebang("#!/usr/bin/env node"));
    assert.ok(isNodeShebang("#!/usr/bin/env -S node --no-warnings"));
    assert.ok(isNodeShebang("#!/usr/local/bin/node"));
    assert.ok(!isNodeShebang("#!/bin/sh"));
  }));

test("engines the default node satisfies: the spec is not changed", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: `>=${process.versions.node.split(".")[0]}` });
    const s = spec(pkg.bin);
    const launch = await nodeLaunch(s, { cwd: dir, env: { PATH: pkg.pathBin } });
    assert.equal(launch.spec, s);
    assert.equal(launch.node, undefined);
  }));

test("engines nothing satisfies: the exact error, saying what to install", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=99", version: "2.0.0" });
    const runtimesDir = join(dir, "runtimes");
    await assert.rejects(
      nodeLaunch(spec(pkg.bin), { cwd: dir, env: { PATH: pkg.pathBin }, runtimesDir }),
      (err: unknown) => {
        assert.ok(err instanceof AcpThreadsError);
        assert.equal(err.code, "agent_not_found");
        assert.equal(
          err.message,
          `fake-node-agent 2.0.0 needs Node >=99 (its package.json engines); found v${NODE} at ${pkg.pathBin}/node. ` +
            "Install Node 99 or newer, set acpThreads.nodePath / ACP_THREADS_NODE, or run `acp-threads runtime install 99`",
        );
        assert.deepEqual((err.details?.nodeRuntime as { major: number }).major, 99);
        return true;
      },
    );
    // the same through the engine: starting the runtime says it (worked out off the thread), nothing is spawned
    const rt = createAgentRuntime({ agent: spec(pkg.bin), cwd: dir }, { baseEnv: { PATH: pkg.pathBin } });
    await assert.rejects(rt.start(), /needs Node >=99/);
    assert.equal(rt.pid, undefined, "nothing was spawned");
    await rt.close();
  }));

test("ACP_THREADS_NODE is honoured (an override: used even outside the range), then the setting", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=99" });
    const env = { PATH: pkg.pathBin, ACP_THREADS_NODE: process.execPath };
    const launch = await nodeLaunch(spec(pkg.bin), { cwd: dir, env, nodePath: "/nowhere/node" });
    assert.equal(launch.spec.command, process.execPath);
    assert.deepEqual(launch.spec.args, [pkg.script, "--flag"]);
    assert.equal(launch.node?.source, "ACP_THREADS_NODE");
    assert.equal(launch.node?.satisfies, false);
    assert.match(launch.note ?? "", /outside >=99: used as configured/);
    const viaSetting = await nodeLaunch(spec(pkg.bin), {
      cwd: dir,
      env: { PATH: pkg.pathBin },
      nodePath: process.execPath,
    });
    assert.equal(viaSetting.node?.source, "acpThreads.nodePath");
    await assert.rejects(
      nodeLaunch(spec(pkg.bin), { cwd: dir, env: { PATH: pkg.pathBin, ACP_THREADS_NODE: "/nowhere/node" } }),
      /ACP_THREADS_NODE is set to '\/nowhere\/node', which does not run as Node/,
    );
  }));

test("choosing a Node for engines the default node misses waits on no file call and runs no node on the thread", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=99" });
    const runtimesDir = join(dir, "runtimes");
    const binDir = join(runtimesDir, "99.0.0", "node_modules", `node-${process.platform}-${process.arch}`, "bin");
    mkdirSync(binDir, { recursive: true });
    symlinkSync(process.execPath, join(binDir, "node"));
    // an explicit Node of its own path: its version is asked (not cached from another test)
    const explicit = join(dir, "explicit-node");
    symlinkSync(process.execPath, explicit);
    const ran: unknown[] = [];
    const table = childProcess as unknown as Record<string, (...a: unknown[]) => unknown>;
    const saved = { execFileSync: table.execFileSync!, spawnSync: table.spawnSync!, execSync: table.execSync! };
    for (const [name, f] of Object.entries(saved)) table[name] = (...a: unknown[]) => (ran.push(a[0]), f(...a));
    try {
      // the default node is looked up on PATH and asked its version; the managed runtimes folder is listed
      const managed = await countFsCalls(
        () => nodeLaunch(spec(pkg.bin), { cwd: dir, env: { PATH: pkg.pathBin }, runtimesDir }),
        [],
      );
      assert.equal(managed.value.node?.source, "managed");
      assert.deepEqual(managed.sync, [], "no synchronous file call choosing the managed Node");
      const viaEnv = await countFsCalls(
        () => nodeLaunch(spec(pkg.bin), { cwd: dir, env: { PATH: pkg.pathBin, ACP_THREADS_NODE: explicit } }),
        [],
      );
      assert.equal(viaEnv.value.node?.version, NODE);
      assert.deepEqual(viaEnv.sync, [], "no synchronous file call choosing the explicit Node");
    } finally {
      Object.assign(table, saved);
    }
    assert.deepEqual(ran, [], "no `node --version` run synchronously");
  }));

test("the host's own runtime: Electron runs as node with ELECTRON_RUN_AS_NODE=1", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=99" });
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const host = { execPath: "/opt/editor/code", node: "99.1.0", electron: "40.0.0" };
    const launch = await nodeLaunch(spec(pkg.bin), { cwd: dir, env: { PATH: empty }, host });
    assert.equal(launch.spec.command, "/opt/editor/code");
    assert.equal(launch.spec.env?.ELECTRON_RUN_AS_NODE, "1");
    assert.equal(launch.node?.source, "host");
  }));

test("a managed Node in the runtimes folder, newest first; PATH gets its folder", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=99" });
    const runtimesDir = join(dir, "runtimes");
    for (const v of ["99.0.0", "99.2.0", "98.0.0"]) {
      const binDir = join(runtimesDir, v, "node_modules", `node-${process.platform}-${process.arch}`, "bin");
      mkdirSync(binDir, { recursive: true });
      symlinkSync(process.execPath, join(binDir, "node"));
    }
    assert.deepEqual(
      (await listManagedNodes(runtimesDir)).map((n) => n.version),
      ["99.2.0", "99.0.0", "98.0.0"],
    );
    const launch = await nodeLaunch(spec(pkg.bin), { cwd: dir, env: { PATH: pkg.pathBin }, runtimesDir });
    assert.equal(launch.node?.source, "managed");
    assert.equal(launch.node?.version, "99.2.0");
    assert.ok(launch.spec.env?.PATH?.startsWith(join(runtimesDir, "99.2.0")));
  }));

test("a node-script agent started through the real engine with ACP_THREADS_NODE answers initialize", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir, { engines: ">=99" });
    // the agent's own `node` on PATH cannot satisfy >=99: without the runtime choice it would start under it
    const baseEnv = { ...process.env, PATH: `${pkg.pathBin}:/usr/bin:/bin`, ACP_THREADS_NODE: process.execPath };
    const rt = createAgentRuntime({ agent: { ...spec(pkg.bin), args: [] }, cwd: dir }, { baseEnv, noPty: true });
    try {
      const caps = await rt.start();
      assert.equal(caps.protocolVersion, 1);
      assert.ok(caps.agentCapabilities.loadSession);
      const notes = rt.protocolLog
        .entries()
        .filter((e) => e.direction === "note")
        .map((e) => e.text);
      assert.ok(
        notes.some((n) => n.includes(`runs with Node ${NODE} from ACP_THREADS_NODE`)),
        notes.join("\n"),
      );
      const { sessionId } = await rt.ensureSession();
      assert.ok(sessionId);
    } finally {
      await rt.close();
    }
  }));

test("no engines: a runnable script starts as it is; a bare .js (no exec bit) runs with the default node", () =>
  withTmp(async (dir) => {
    const pkg = fakeNodePackage(dir);
    const s = spec(pkg.bin);
    assert.equal((await nodeLaunch(s, { cwd: dir, env: { PATH: pkg.pathBin } })).spec, s);
    chmodSync(pkg.script, 0o644);
    const bare = await nodeLaunch(spec(pkg.script), { cwd: dir, env: { PATH: pkg.pathBin } });
    assert.equal(bare.spec.command, join(pkg.pathBin, "node"));
    assert.deepEqual(bare.spec.args, [pkg.script, "--flag"]);
    assert.equal(bare.node?.source, "path");
  }));
