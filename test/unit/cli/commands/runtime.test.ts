import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCli } from "../../../fixtures/cli/spawn-cli";
import { fakeNodePackage } from "../../../fixtures/fake-agents/node-package";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withHome = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-cli-rt-", fn);
/** No explicit Node from the test runner's environment. */
const env = { ACP_THREADS_NODE: "" };

/** A stand-in managed Node `version` (a link to this node) in `<home>/runtimes`. */
function fakeManaged(home: string, version: string): string {
  const binDir = join(home, "runtimes", version, "node_modules", `node-${process.platform}-${process.arch}`, "bin");
  mkdirSync(binDir, { recursive: true });
  symlinkSync(process.execPath, join(binDir, "node"));
  return join(binDir, "node");
}

test("runtime list / remove work on the managed Nodes of the data home", () =>
  withHome(async (home) => {
    const empty = await runCli(["runtime", "list"], { home, env });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, `no managed Node runtimes in ${join(home, "runtimes")}\n`);
    const path = fakeManaged(home, "99.1.0");
    fakeManaged(home, "99.10.0");
    const json = await runCli(["runtime", "list", "--format", "json"], { home, env });
    const nodes = JSON.parse(json.stdout) as { version: string; path: string }[];
    assert.deepEqual(
      nodes.map((n) => n.version),
      ["99.10.0", "99.1.0"],
    );
    assert.equal(nodes[1]!.path, path);
    const removed = await runCli(["runtime", "remove", "99.1.0"], { home, env });
    assert.equal(removed.code, 0, removed.stderr);
    const again = await runCli(["runtime", "rm", "99.1.0"], { home, env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no managed Node 99\.1\.0 in /);
    assert.equal((await runCli(["runtime", "install", "1", "2"], { home, env })).code, 2);
  }));

test("run: an agent no Node fits fails with what to install; a managed Node in the home starts it", () =>
  withHome(async (home) => {
    const pkg = fakeNodePackage(home, { engines: ">=99", version: "3.1.4" });
    const fail = await runCli(["run", "--agent", pkg.bin, "hello"], { home, env });
    assert.equal(fail.code, 1);
    assert.match(
      fail.stderr,
      /fake-node-agent 3\.1\.4 needs Node >=99 \(its package\.json engines\); found v[\d.]+ at .*node\. Install Node 99 or newer, set acpThreads\.nodePath \/ ACP_THREADS_NODE, or run `acp-threads runtime install 99`/,
    );
    fakeManaged(home, "99.0.0");
    const ok = await runCli(["run", "--agent", pkg.bin, "hello"], { home, env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, "echo: hello\n");
  }));

test("doctor --no-probe lists the presets without starting any", () =>
  withHome(async (home) => {
    const res = await runCli(["doctor", "--no-probe", "--format", "json"], { home, env });
    assert.equal(res.code, 0, res.stderr);
    const entries = JSON.parse(res.stdout) as { id: string; probe?: unknown }[];
    assert.deepEqual(
      entries.map((e) => e.id),
      ["codex", "claude", "gemini", "opencode", "pi"],
    );
    assert.ok(entries.every((e) => e.probe === undefined));
  }));
