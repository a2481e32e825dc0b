/**
 * Where node-pty does not load (the universal VSIX, an unsupported platform) or cannot start a terminal, exec
 * runs and agent terminals fall back to pipes, and the first fallback fires one notice.
 */
import assert from "node:assert/strict";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startTerminalProcess } from "../../../../src/core/acp/terminal-process";
import { ExecRegistry } from "../../../../src/core/exec";
import { platformOf } from "../../../../src/core/platform/host";
import {
  ensureSpawnHelperExecutable,
  loadPty,
  NO_PTY_ENV,
  onPtyFallback,
  resetPtyForTests,
  type PtyModule,
} from "../../../../src/core/platform/pty";
import { withTmp } from "../store/helpers";

const missing = (): PtyModule => {
  throw new Error("Failed to load native module: pty.node, checked: build/Release, prebuilds/linux-arm64");
};

test("without node-pty an exec PTY run and an agent terminal use pipes, and the notice comes once", () =>
  withTmp(async (dir) => {
    resetPtyForTests(missing);
    const notices: string[] = [];
    const sub = onPtyFallback((n) => notices.push(n.message));
    const registry = new ExecRegistry({ execDir: join(dir, "exec"), sweepIntervalMs: 0 });
    try {
      for (const word of ["one", "two"]) {
        const run = registry.start({ command: "sh", args: ["-c", `echo ${word}`], cwd: dir, pty: true });
        const info = await run.exited;
        assert.equal(info.pty, false, "recorded as a pipe run");
        assert.equal(info.exitCode, 0);
        assert.match(run.read(0).text, new RegExp(word));
      }
      const term = startTerminalProcess({ command: "echo hi", cwd: dir, env: process.env });
      assert.equal(term.kind, "pipe");
      let out = "";
      term.onData((d) => (out += d.toString()));
      await new Promise((r) => term.onExit(r));
      assert.equal(out, "hi\n");
      assert.equal(notices.length, 1, "one notice per process");
      assert.match(notices[0]!, /no pseudo-terminal on this machine \(linux-x64: Failed to load native module/);
      assert.match(notices[0]!, /plain pipes/);
      const late: string[] = [];
      onPtyFallback((n) => late.push(n.reason)).dispose();
      assert.equal(late.length, 1, "a late subscriber still learns about it");
    } finally {
      sub.dispose();
      registry.dispose();
      resetPtyForTests();
    }
  }));

test("a PTY that fails to start a terminal (e.g. a helper without its execute bit) also falls back", () =>
  withTmp(async (dir) => {
    const broken = {
      spawn: () => {
        throw new Error("posix_spawnp failed.");
      },
    } as unknown as PtyModule;
    resetPtyForTests(() => broken);
    const reasons: string[] = [];
    const sub = onPtyFallback((n) => reasons.push(n.reason));
    try {
      const term = startTerminalProcess({ command: "echo", args: ["ok"], cwd: dir, env: process.env });
      assert.equal(term.kind, "pipe");
      await new Promise((r) => term.onExit(r));
      assert.deepEqual(reasons, ["a terminal could not be started: posix_spawnp failed."]);
      assert.equal(loadPty(), null, "not tried again");
    } finally {
      sub.dispose();
      resetPtyForTests();
    }
  }));

test(`${NO_PTY_ENV}=1 forces pipes; the real node-pty loads here otherwise`, () => {
  resetPtyForTests();
  process.env[NO_PTY_ENV] = "1";
  try {
    assert.equal(loadPty(), null);
  } finally {
    delete process.env[NO_PTY_ENV];
    resetPtyForTests();
  }
  assert.equal(typeof loadPty()?.spawn, "function");
});

test("macOS: a prebuilt spawn-helper without its execute bit gets it back (node-pty 1.1 ships it 0644)", () =>
  withTmp((dir) => {
    const helperDir = join(dir, "prebuilds", "darwin-arm64");
    mkdirSync(helperDir, { recursive: true });
    const helper = join(helperDir, "spawn-helper");
    writeFileSync(helper, "", { mode: 0o644 });
    assert.deepEqual(ensureSpawnHelperExecutable(dir, platformOf("linux", {}, "arm64")), [], "only on macOS");
    assert.deepEqual(ensureSpawnHelperExecutable(dir, platformOf("darwin", {}, "arm64")), [helper]);
    assert.equal(statSync(helper).mode & 0o777, 0o755);
    assert.deepEqual(ensureSpawnHelperExecutable(dir, platformOf("darwin", {}, "arm64")), [], "already fine");
  }));
