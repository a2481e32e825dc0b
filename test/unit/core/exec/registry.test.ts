import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { AcpThreadsError } from "../../../../src/core/errors";
import { ExecRegistry, execTtlMs, openExecRegistry } from "../../../../src/core/exec";
import { readHomeSettings, writeHomeSettings } from "../../../../src/core/store/home-settings";
import { pidAlive, tempDir, waitForOutput, waitUntil, withRegistry } from "./helpers";

test("a finished run records its exit code, output and a 0600 state file", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({ command: "sh", args: ["-c", "echo out; echo err >&2; exit 3"], cwd: dir });
    const info = await run.exited;
    assert.equal(info.status, "exited");
    assert.equal(info.exitCode, 3);
    const log = registry.log(run.id);
    assert.match(log.text, /out\n/);
    assert.match(log.text, /err\n/);
    const state = JSON.parse(readFileSync(join(dir, `${run.id}.json`), "utf8"));
    assert.equal(state.status, "exited");
    assert.equal(state.bytes, log.total);
    assert.equal(state.pgid, state.pid);
    assert.equal(statSync(join(dir, `${run.id}.json`)).mode & 0o777, 0o600);
    assert.equal("env" in state, false, "the environment is never persisted");
  });
});

test("a key on the command line is redacted in the state file", async () => {
  await withRegistry(async (registry, dir) => {
    const key = "sk-abcdefghijklmnopqrstuvwxyz0123";
    const run = registry.start({ command: "echo", args: ["--api-key", key], cwd: dir });
    await run.exited;
    const state = readFileSync(join(dir, `${run.id}.json`), "utf8");
    assert.ok(!state.includes(key), "the key is not on disk");
    assert.match(state, /REDACTED/);
  });
});

test("poll returns only new output after a cursor and the status", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({ command: "sh", args: ["-c", "echo one; read x; echo two"], cwd: dir });
    await waitForOutput(run, "one");
    const first = registry.poll(run.id, 0);
    assert.equal(first.text, "one\n");
    assert.equal(first.run.status, "running");
    registry.submit(run.id, "go");
    await run.exited;
    const second = registry.poll(run.id, first.next);
    assert.equal(second.text, "two\n");
    assert.equal(second.run.status, "exited");
  });
});

test("kill reaches grandchildren in the process group", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({
      command: "sh",
      args: ["-c", "sleep 100 & echo kid $!; sleep 100 & echo kid $!; wait"],
      cwd: dir,
    });
    const text = await waitForOutput(run, /kid \d+\nkid \d+\n/);
    const kids = [...text.matchAll(/kid (\d+)/g)].map((m) => Number(m[1]));
    assert.equal(kids.length, 2);
    assert.ok(kids.every(pidAlive));
    const info = await registry.kill(run.id, 500);
    assert.equal(info.status, "killed");
    await waitUntil(() => !kids.some(pidAlive), "both grandchildren are gone");
  });
});

test("a term-ignoring process is killed with SIGKILL after the grace period", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({ command: "sh", args: ["-c", "trap '' TERM; echo armed; sleep 100"], cwd: dir });
    await waitForOutput(run, "armed");
    const info = await registry.kill(run.id, 200);
    assert.equal(info.signal, "SIGKILL");
  });
});

test("a run that outlives its timeout is killed and marked timeout", async () => {
  await withRegistry(
    async (registry, dir) => {
      const run = registry.start({ command: "sleep", args: ["100"], cwd: dir, timeoutMs: 200 });
      const info = await run.exited;
      assert.equal(info.status, "timeout");
    },
    { killGraceMs: 300 },
  );
});

for (const how of ["sweep", "sweepAsync"] as const)
  test(`TTL expiry removes finished runs and never running ones (${how})`, async () => {
    await withRegistry(
      async (registry, dir) => {
        const sweep = async (now: number) => (how === "sweep" ? registry.sweep(now) : await registry.sweepAsync(now));
        const done = registry.start({ command: "true", args: [], cwd: dir });
        await done.exited;
        const running = registry.start({ command: "sleep", args: ["100"], cwd: dir });
        assert.deepEqual(await sweep(Date.now()), [], "nothing is old enough yet");
        const removed = await sweep(Date.now() + 61_000);
        assert.deepEqual(removed, [done.id]);
        assert.deepEqual(
          registry.list().map((r) => r.id),
          [running.id],
        );
        assert.ok(!readdirSync(dir).some((n) => n.startsWith(done.id)), "its state and logs are gone");
        await running.kill(200);
      },
      { ttlMs: 60_000 },
    );
  });

test("a running state whose process is gone reads as lost in another registry", async () => {
  const { dir, cleanup } = tempDir();
  const owner = new ExecRegistry({ execDir: dir, sweepIntervalMs: 0 });
  try {
    const run = owner.start({ command: "sleep", args: ["100"], cwd: dir });
    const other = new ExecRegistry({ execDir: dir, sweepIntervalMs: 0 });
    assert.equal(other.resolve(run.id).status, "running");
    assert.equal(other.resolve(run.id).live, false);
    assert.throws(() => other.write(run.id, "x"), AcpThreadsError);
    // Kill the process behind the owner's back, before it can record the exit: simulate by a stale copy.
    const stale = readFileSync(join(dir, `${run.id}.json`), "utf8");
    await run.kill(200);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, `${run.id}.json`), stale);
    assert.equal(other.resolve(run.id).status, "lost");
    other.dispose();
  } finally {
    owner.dispose();
    cleanup();
  }
});

test("a missing command or working directory is a clear error and records nothing", async () => {
  await withRegistry(async (registry, dir) => {
    assert.throws(
      () => registry.start({ command: "no-such-cmd-xyz", args: [], cwd: dir }),
      /command not found: no-such-cmd-xyz/,
    );
    assert.throws(
      () => registry.start({ command: "true", args: [], cwd: join(dir, "nope") }),
      /working directory does not exist/,
    );
    assert.deepEqual(registry.list(), []);
  });
});

test("ids resolve by unique prefix", async () => {
  await withRegistry(async (registry, dir) => {
    const run = registry.start({ command: "true", args: [], cwd: dir, id: "abc123" });
    await run.exited;
    assert.equal(registry.resolve("abc").id, "abc123");
    assert.throws(() => registry.resolve("zzz"), /no exec run 'zzz'/);
    assert.throws(
      () => registry.start({ command: "true", args: [], cwd: dir, id: "../escape" }),
      /invalid exec run id/,
    );
  });
});

test("a registry opened on a home keeps finished runs as long as the home's settings say, read at each sweep", async () => {
  const { dir: home, cleanup } = tempDir("acp-exec-home-");
  const registry = openExecRegistry(home, { recordThreads: false, sweepIntervalMs: 0 });
  try {
    const done = registry.start({ command: "true", args: [], cwd: home });
    await done.exited;
    const in45min = Date.now() + 45 * 60_000;
    assert.equal(registry.ttlMs, 60 * 60_000, "the default is one hour, for the editor and the CLI alike");
    assert.deepEqual(registry.sweep(in45min), []);
    writeHomeSettings(home, { execTtlMinutes: 30 }); // what the editor writes when the setting changes
    assert.equal(execTtlMs(home), 30 * 60_000);
    assert.deepEqual(registry.sweep(in45min), [done.id], "the new setting applies without reopening");
  } finally {
    registry.dispose();
    cleanup();
  }
});

test("home settings: unreadable or invalid values read as unset, writes are 0600 and only when changed", () => {
  const { dir: home, cleanup } = tempDir("acp-exec-home-");
  try {
    assert.deepEqual(readHomeSettings(home), {});
    assert.equal(writeHomeSettings(home, { execTtlMinutes: 90 }), true);
    assert.equal(writeHomeSettings(home, { execTtlMinutes: 90 }), false, "unchanged: not rewritten");
    assert.equal(statSync(join(home, "settings.json")).mode & 0o777, 0o600);
    assert.deepEqual(readHomeSettings(home), { execTtlMinutes: 90 });
    writeFileSync(join(home, "settings.json"), '{"execTtlMinutes": -5}');
    assert.equal(execTtlMs(home), 60 * 60_000);
    writeFileSync(join(home, "settings.json"), "{not json");
    assert.deepEqual(readHomeSettings(home), {});
  } finally {
    cleanup();
  }
});
