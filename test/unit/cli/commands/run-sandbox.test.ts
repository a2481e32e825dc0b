/**
 * `run --sandbox` and `exec --sandbox` through the real CLI (#34): the hostile agent's escape is contained and
 * said so; a machine without bubblewrap fails with what to install and nothing runs (no thread, no agent).
 * The temp folder is the test's own (TMPDIR), so the home beside it is outside everything writable.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { runCli } from "../../../fixtures/cli/spawn-cli";
import { HOSTILE_AGENT, noBwrap, sandboxWorld } from "../../../fixtures/sandbox-world";

const HOSTILE = [HOSTILE_AGENT.command, ...HOSTILE_AGENT.args].join(" ");
const skip = noBwrap;

/** A PATH with node alone on it: no bwrap to find. */
function nodeOnly(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

function world(dir: string) {
  const { home, ws, tmp } = sandboxWorld(dir);
  const data = join(dir, "data");
  mkdirSync(data);
  return { home, ws, data, env: { HOME: home, TMPDIR: tmp } };
}

test("run --sandbox: the hostile agent's writes outside, secret read and symlink escape fail", { skip }, () =>
  withTmpDir("sbx-cli-", async (dir) => {
    const w = world(dir);
    const r = await runCli(["run", "--sandbox", "--agent", HOSTILE, "escape"], { home: w.data, cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /escape: out=EROFS secret=ENOENT link=EROFS/);
    assert.match(r.stderr, /sandboxed \(bubblewrap\): writes only in .*ws/);
    for (const f of ["outside.txt", "via-link.txt"]) assert.equal(existsSync(join(w.home, f)), false, f);
  }),
);

test("run --sandbox notes each write the sandbox refused, read from the tool's output", { skip }, () =>
  withTmpDir("sbx-cli-", async (dir) => {
    const w = world(dir);
    const prompt = `shell echo in > ${w.ws}/in.txt; echo x > ${w.home}/out.txt; echo y > ${w.home}/out.txt`;
    const r = await runCli(["run", "--sandbox", "--agent", HOSTILE, prompt], { home: w.data, cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /shell done/);
    const notes = r.stderr.split("\n").filter((l) => l.includes("blocked by the sandbox"));
    assert.deepEqual(notes, [`acp-threads run: blocked by the sandbox: write ${w.home}/out.txt`]);
    assert.equal(existsSync(join(w.ws, "in.txt")), true);
  }),
);

test("--sandbox without bubblewrap: the error says what to install, and nothing runs", () =>
  withTmpDir("sbx-cli-", async (dir) => {
    const w = world(dir);
    const env = { ...w.env, PATH: nodeOnly(dir) };
    const r = await runCli(["run", "--sandbox", "--agent", HOSTILE, "escape"], { home: w.data, cwd: w.ws, env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cannot sandbox the agent: .*(apt install bubblewrap|no OS sandbox)/);
    assert.equal(existsSync(join(w.home, "outside.txt")), false, "the agent never ran");
    assert.equal(existsSync(join(w.data, "threads")) && readdirSync(join(w.data, "threads")).length > 0, false);
    const e = await runCli(["exec", "--sandbox", "--", "sh", "-c", `touch ${w.home}/ran.txt`], {
      home: w.data,
      cwd: w.ws,
      env,
    });
    assert.equal(e.code, 1);
    assert.match(e.stderr, /cannot sandbox/);
    assert.equal(existsSync(join(w.home, "ran.txt")), false, "the command never ran");
  }));

test("exec --sandbox: the workspace is writable, the home is not; --no-sandbox is the control", { skip }, () =>
  withTmpDir("sbx-cli-", async (dir) => {
    const w = world(dir);
    const script = `echo in > in.txt; echo out > ${w.home}/out.txt`;
    const r = await runCli(["exec", "--sandbox", "--", "sh", "-c", script], { home: w.data, cwd: w.ws, env: w.env });
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /out\.txt: Read-only file system/);
    assert.equal(existsSync(join(w.ws, "in.txt")), true);
    assert.equal(existsSync(join(w.home, "out.txt")), false);
    const c = await runCli(["exec", "--no-sandbox", "--", "sh", "-c", script], { home: w.data, cwd: w.ws, env: w.env });
    assert.equal(c.code, 0, c.stderr);
    assert.equal(existsSync(join(w.home, "out.txt")), true);
  }),
);

test("doctor's last row says whether the sandbox works here, and what to install when not", () =>
  withTmpDir("sbx-cli-", async (dir) => {
    const w = world(dir);
    const without = await runCli(["doctor", "--no-probe"], {
      home: w.data,
      cwd: w.ws,
      env: { ...w.env, PATH: nodeOnly(dir) },
    });
    assert.equal(without.code, 0, without.stderr);
    if (process.platform === "linux")
      assert.match(
        without.stdout.trim().split("\n").at(-1)!,
        /^sandbox +missing +bubblewrap \(bwrap\) is not installed: install/,
      );
    if (skip) return;
    const withIt = await runCli(["doctor", "--no-probe"], { home: w.data, cwd: w.ws, env: w.env });
    assert.match(withIt.stdout.trim().split("\n").at(-1)!, /^sandbox +ok +bubblewrap \(\/.*bwrap\)/);
    assert.match(withIt.stdout, /; seccomp( \((x86_64|aarch64)\): unix sockets and TIOCSTI blocked|: none on \w+)/);
  }));
