/**
 * A hostile agent through the real engine, sandboxed (#34): without asking it writes ~/outside.txt, reads
 * ~/.ssh/id_ed25519 and writes through a workspace symlink that points home; it also runs a terminal that
 * writes outside. Sandboxed, every attempt fails and nothing lands; unsandboxed (the control) all succeed. The
 * group kill still ends the agent inside bwrap. Linux with a working bubblewrap only (CI installs it).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, type SandboxPlan } from "../../../../src/core/sandbox/plan";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { hostileRuntime, hostileTurn as turn, noBwrap, sandboxWorld } from "../../../fixtures/sandbox-world";

const BOUND = { timeout: 60_000 };
const skip = noBwrap;

interface World {
  home: string;
  ws: string;
  sandbox?: SandboxPlan;
}

async function world(dir: string, sandboxed: boolean): Promise<World> {
  const { home, ws, tmp } = sandboxWorld(dir);
  if (!sandboxed) return { home, ws };
  const policy = buildSandboxPolicy({ roots: [ws], agentId: "hostile", home, env: {}, tmpDir: tmp });
  return { home, ws, sandbox: await prepareSandbox(policy) };
}

const hostile = (w: World) => hostileRuntime(w.ws, w.home, w.sandbox);

test(
  "sandboxed: the agent's own writes outside, its read of a secret and a symlink escape all fail",
  { ...BOUND, skip },
  () =>
    withTmpDir("sbx-hostile-", async (dir) => {
      const w = await world(dir, true);
      const rt = hostile(w);
      try {
        assert.equal(await turn(rt, "escape"), "escape: out=EROFS secret=ENOENT link=EROFS");
        const out = await turn(
          rt,
          `bait echo hi -- sh -c 'echo x > ${w.home}/by-terminal.txt; echo in > ${w.ws}/in.txt'`,
        );
        assert.match(
          out,
          /^ran: \d+\|.*by-terminal.txt: Read-only file system/s,
          "the agent's terminal runs in the same sandbox",
        );
        assert.equal(existsSync(join(w.ws, "in.txt")), true, "the workspace stays writable from a terminal");
        for (const f of ["outside.txt", "via-link.txt", "by-terminal.txt"])
          assert.equal(existsSync(join(w.home, f)), false, f);
      } finally {
        await rt.close();
      }
    }),
);

test("the control, unsandboxed: the same agent does all of it", { ...BOUND, skip }, () =>
  withTmpDir("sbx-hostile-", async (dir) => {
    const w = await world(dir, false);
    const rt = hostile(w);
    try {
      assert.equal(await turn(rt, "escape"), "escape: out=ok secret=ok link=ok");
      assert.equal(existsSync(join(w.home, "outside.txt")), true);
    } finally {
      await rt.close();
    }
  }),
);

test("closing a sandboxed agent ends bwrap's whole group, the agent inside included", { ...BOUND, skip }, () =>
  withTmpDir("sbx-hostile-", async (dir) => {
    const rt = hostile(await world(dir, true));
    await turn(rt, "hello");
    const pid = rt.pid!;
    assert.ok(pid > 0);
    await rt.close();
    // A dead process waits as a zombie until its reaper (pid 1 of a container, which may never) collects it.
    const alive = () =>
      spawnSync("ps", ["-o", "pid=,stat=,args=", "-g", String(pid)], { encoding: "utf8" })
        .stdout.split("\n")
        .filter((line) => line.trim() && !/^\s*\d+\s+Z/.test(line));
    // close() ends with a SIGKILL to the group; the kernel finishes a killed process when it next runs it, which on
    // a loaded machine can be after ps looked (this test failed once so under load). SIGKILL cannot be caught, so
    // the group must be gone within a bound, not at once.
    let left = alive();
    for (let i = 0; i < 50 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = alive();
    }
    assert.deepEqual(left, [], "no live process of the group is left");
  }),
);

/** A unix socket server (a stand-in for the D-Bus session bus or a docker socket) in a folder no sandbox denies. */
async function unixServer(dir: string, fn: (path: string) => Promise<void>): Promise<void> {
  const path = join(dir, "bus.sock");
  const server = createServer((c) => c.end("bus\n"));
  server.listen(path);
  await once(server, "listening");
  try {
    await fn(path);
  } finally {
    server.close();
  }
}

for (const allowedHosts of [undefined, ["api.openai.com"]]) {
  const how = allowedHosts ? " with allowed hosts (behind the egress bridge)" : "";
  test(`sandboxed${how}: the agent cannot connect to a unix socket it can see (seccomp)`, { ...BOUND, skip }, () =>
    withTmpDir("sbx-hostile-", async (dir) => {
      const { home, ws, tmp } = sandboxWorld(dir);
      const settings = allowedHosts ? { allowedHosts } : undefined;
      const policy = buildSandboxPolicy({ roots: [ws], agentId: "hostile", home, env: {}, tmpDir: tmp, settings });
      const sandbox = await prepareSandbox(policy);
      const rt = hostileRuntime(ws, home, sandbox);
      try {
        await unixServer(dir, async (path) => {
          assert.equal(await turn(rt, `unix ${path}`), "unix: EPERM");
          const out = await turn(
            rt,
            `bait echo hi -- ${process.execPath} -e 'require("net").connect(process.argv[1]).on("error", (e) => console.log(e.code)).on("data", (d) => console.log(String(d).trim()))' ${path}`,
          );
          assert.match(out, /^ran: \d+\|EPERM/, "its terminal too");
        });
      } finally {
        await rt.close();
        await closeSandbox(sandbox);
      }
    }),
  );
}

test("the control, unsandboxed: the same agent reaches the unix socket", { ...BOUND, skip }, () =>
  withTmpDir("sbx-hostile-", async (dir) => {
    const w = await world(dir, false);
    const rt = hostile(w);
    try {
      await unixServer(dir, async (path) => assert.equal(await turn(rt, `unix ${path}`), "unix: bus"));
    } finally {
      await rt.close();
    }
  }),
);
