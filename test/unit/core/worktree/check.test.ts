// src/core/worktree/check.ts with real shell commands: pass, fail, a missing command, a timeout that kills the
// whole process group (a grandchild included), an abort, a bounded and redacted output tail.
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { checkPassed, runCheck } from "../../../../src/core/worktree/check";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("runCheck: exit 0 passes, a failing command reports its code and output, in the given folder", () =>
  withTmpDir("acp-check-", async (dir) => {
    writeFileSync(join(dir, "hello.txt"), "from codex\n");
    const ok = await runCheck(dir, "grep -q codex hello.txt && echo found", { timeoutMs: 60_000 });
    assert.equal(ok.exitCode, 0);
    assert.equal(checkPassed(ok), true);
    assert.equal(ok.command, "grep -q codex hello.txt && echo found");
    assert.equal(ok.outputTail, "found\n");
    assert.equal(ok.timedOut, undefined);
    assert.equal(typeof ok.durationMs, "number");
    const bad = await runCheck(dir, "echo to-stderr >&2; grep -q claude hello.txt", { timeoutMs: 60_000 });
    assert.equal(bad.exitCode, 1);
    assert.equal(checkPassed(bad), false);
    assert.equal(bad.outputTail, "to-stderr\n");
    const env = await runCheck(dir, 'printf "%s" "$CHECK_X"', { timeoutMs: 60_000, env: { CHECK_X: "y" } });
    assert.equal(env.outputTail, "y");
  }));

test("runCheck: a missing command is exit 127 with the shell's message; a missing folder is a result, not a throw", () =>
  withTmpDir("acp-check-", async (dir) => {
    const missing = await runCheck(dir, "no-such-command-acp-threads --x", { timeoutMs: 60_000 });
    assert.equal(missing.exitCode, 127);
    assert.match(missing.outputTail, /no-such-command-acp-threads/);
    const nowhere = await runCheck(join(dir, "gone"), "true", { timeoutMs: 60_000 });
    assert.equal(nowhere.exitCode, null);
    assert.equal(checkPassed(nowhere), false);
    assert.match(nowhere.outputTail, /ENOENT/);
  }));

test("runCheck: past its time the whole group is killed (the grandchild too), SIGKILL after the grace", () =>
  withTmpDir("acp-check-", async (dir) => {
    const pidFile = join(dir, "grandchild.pid");
    // the grandchild ignores SIGTERM: only the group SIGKILL after the grace ends it
    const res = await runCheck(dir, `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 1; done' & wait`, {
      timeoutMs: 1_500,
      killGraceMs: 300,
    });
    assert.equal(res.timedOut, true);
    assert.equal(res.exitCode, null);
    assert.ok(res.signal === "SIGTERM" || res.signal === "SIGKILL", String(res.signal));
    assert.equal(existsSync(pidFile), true);
    const pid = Number((await import("node:fs")).readFileSync(pidFile, "utf8").trim());
    for (let i = 0; i < 200 && alive(pid); i++) await sleep(50);
    assert.equal(alive(pid), false, "the grandchild was killed with its group");
  }));

test("runCheck: a background process the command leaves behind is killed when it exits", () =>
  withTmpDir("acp-check-", async (dir) => {
    const pidFile = join(dir, "bg.pid");
    const res = await runCheck(dir, `(sleep 300 & echo $! > ${pidFile}) ; echo done`, { timeoutMs: 60_000 });
    assert.equal(res.exitCode, 0);
    assert.equal(res.outputTail, "done\n");
    const pid = Number((await import("node:fs")).readFileSync(pidFile, "utf8").trim());
    for (let i = 0; i < 200 && alive(pid); i++) await sleep(50);
    assert.equal(alive(pid), false);
  }));

test("runCheck: an abort stops it; the tail keeps the output's end, redacted", () =>
  withTmpDir("acp-check-", async (dir) => {
    const stop = new AbortController();
    const running = runCheck(dir, "echo started; sleep 300", { timeoutMs: 600_000, signal: stop.signal });
    await sleep(200);
    stop.abort();
    const res = await running;
    assert.equal(res.aborted, true);
    assert.equal(res.timedOut, undefined);
    assert.equal(res.exitCode, null);

    const long = await runCheck(dir, "seq 1 20000; echo api_key=abcdef123456789", {
      timeoutMs: 60_000,
      tailBytes: 1_000,
    });
    assert.equal(long.exitCode, 0);
    assert.ok(long.outputTail.length <= 1_000, String(long.outputTail.length));
    assert.match(long.outputTail, /\n20000\napi_key=\[REDACTED\]\n$/);
    assert.doesNotMatch(long.outputTail, /abcdef123456789/);
  }));
