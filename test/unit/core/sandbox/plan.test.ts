/** A policy resolved on this machine, the missing-tool error, and real bwrap runs (Linux with bubblewrap). */
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { once } from "node:events";
import { promisify } from "node:util";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { noBwrap, sandboxWorld } from "../../../fixtures/sandbox-world";
import type { SandboxSettings } from "../../../../src/core/model/sandbox";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, sandboxedLaunch } from "../../../../src/core/sandbox/plan";
import { sandboxAvailability } from "../../../../src/core/sandbox/tool";

const skip = noBwrap;
const run = promisify(execFile);

function layout(dir: string, settings?: SandboxSettings) {
  const { home, ws, tmp } = sandboxWorld(dir);
  const policy = buildSandboxPolicy({ roots: [ws], agentId: "codex", home, env: {}, tmpDir: tmp, settings });
  return { home, ws, tmp, policy };
}

test("a missing bwrap is a clear error that says what to install, and no plan is made", async () => {
  await withTmpDir("sbx-", async (dir) => {
    const { policy } = layout(dir);
    const found = await sandboxAvailability({ env: { PATH: join(dir, "nothing") } });
    if (process.platform !== "linux") return;
    assert.equal(found.available, false);
    await assert.rejects(
      prepareSandbox(policy, { env: { PATH: join(dir, "nothing") } }),
      (err: Error & { code?: string }) =>
        err.code === "sandbox_unavailable" &&
        /bubblewrap \(bwrap\) is not installed.*apt install bubblewrap/.test(err.message),
    );
  });
});

test(
  "with allowed hosts, bwrap runs the program behind the bridge, and closing removes the proxy's folder",
  { skip },
  async () => {
    await withTmpDir("sbx-", async (dir) => {
      const { ws, policy } = layout(dir, { allowedHosts: ["api.openai.com"] });
      const plan = await prepareSandbox(policy);
      assert.equal(plan.egress?.kind, "socket");
      const egress = plan.egress as { dir: string; hidden: string };
      assert.equal(statSync(egress.dir).mode & 0o777, 0o700);
      const script = 'echo "$HTTPS_PROXY $https_proxy $NODE_USE_ENV_PROXY ${NO_PROXY-unset}"; ls ' + egress.hidden;
      const launch = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", script] }, ws);
      const r = spawnSync(launch.file, launch.args, {
        cwd: ws,
        encoding: "utf8",
        env: { ...process.env, NO_PROXY: "*" },
      });
      const proxy = "http://127.0.0.1:3128";
      assert.equal(r.stdout, `${proxy} ${proxy} 1 unset\n${egress.dir.slice(egress.hidden.length + 1)}\n`, r.stderr);
      const exit = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", "exit 7"] }, ws);
      assert.equal(spawnSync(exit.file, exit.args, { cwd: ws }).status, 7, "the bridge exits as the program did");
      await closeSandbox(plan);
      assert.equal(existsSync(egress.dir), false);
    });
  },
);

test("resolving: the agent's state folder is created, existing paths only, real paths", { skip }, async () => {
  await withTmpDir("sbx-", async (dir) => {
    const { home, ws, tmp, policy } = layout(dir);
    const plan = await prepareSandbox(policy);
    assert.equal(plan.tool.kind, "bwrap");
    assert.deepEqual(plan.writable.slice(0, 3), [ws, tmp, join(home, ".codex")]);
    assert.ok(!plan.writable.includes(join(home, ".claude.json")));
    assert.deepEqual(plan.denyRead, [{ path: join(home, ".ssh"), dir: true }]);
  });
});

test(
  "hostile: inside bwrap, writes outside the roots, a secret, and a workspace symlink out all fail",
  { skip },
  async () => {
    await withTmpDir("sbx-", async (dir) => {
      const { home, ws, policy } = layout(dir);
      const plan = await prepareSandbox(policy);
      const script = [
        `echo in > ${ws}/in.txt && echo wrote-in`,
        `echo out > ${home}/outside.txt || echo refused-out`,
        `cat ${home}/.ssh/id_ed25519 || echo refused-secret`,
        `echo link > ${ws}/home-link/via-link.txt || echo refused-link`,
      ].join("; ");
      const launch = sandboxedLaunch(plan, { file: "/bin/sh", args: ["-c", script] }, ws);
      const r = spawnSync(launch.file, launch.args, { cwd: ws, encoding: "utf8" });
      assert.match(r.stdout, /wrote-in\nrefused-out\nrefused-secret\nrefused-link/);
      assert.doesNotMatch(r.stdout, /PRIVATE KEY/);
      assert.match(r.stderr, /Read-only file system/);
      assert.equal(readFileSync(join(ws, "in.txt"), "utf8"), "in\n");
      assert.throws(() => readFileSync(join(home, "outside.txt")));
      assert.throws(() => readFileSync(join(home, "via-link.txt")));
    });
  },
);

test(
  "hostile: the ssh agent's socket cannot be reached from inside (a read-only mount does not stop connect)",
  { skip },
  async () => {
    await withTmpDir("sbx-", async (dir) => {
      const { home, ws, tmp } = sandboxWorld(dir);
      const sock = join(dir, "agent.sock");
      const server = createServer((c) => c.end("signed")).listen(sock);
      await once(server, "listening");
      try {
        const policy = buildSandboxPolicy({
          roots: [ws],
          agentId: "x",
          home,
          env: { SSH_AUTH_SOCK: sock },
          tmpDir: tmp,
        });
        const plan = await prepareSandbox(policy);
        const probe = `require("net").connect(${JSON.stringify(sock)}).on("data", (d) => console.log(String(d))).on("error", (e) => console.log(e.code))`;
        const launch = sandboxedLaunch(plan, { file: process.execPath, args: ["-e", probe] }, ws);
        // async: the server answers from this process's loop
        const r = await run(launch.file, launch.args, { cwd: ws });
        // EPERM: the seccomp filter refuses the unix socket before the hidden path is even looked at
        assert.match(r.stdout, /^(EPERM|ECONNREFUSED|ENOENT|ENOTSOCK)/, r.stderr);
        const control = await run(process.execPath, ["-e", probe], {});
        assert.equal(control.stdout.trim(), "signed", "unsandboxed, the socket answers");
      } finally {
        server.close();
      }
    });
  },
);

/** python3, else perl: a script that calls ioctl(TIOCSTI) on /dev/null and prints the errno's name. */
function tiocstiProbe(): { file: string; args: string[] } | undefined {
  const has = (file: string, flag: string) => spawnSync(file, [flag, "1"], { stdio: "ignore" }).status === 0;
  if (has("python3", "-c"))
    return {
      file: "python3",
      args: [
        "-c",
        'import errno,fcntl,os\ntry:\n fcntl.ioctl(os.open("/dev/null",os.O_RDONLY),0x5412,b"x");print("ok")\nexcept OSError as e:print(errno.errorcode[e.errno])',
      ],
    };
  if (has("perl", "-e"))
    return {
      file: "perl",
      args: [
        "-MPOSIX",
        "-e",
        'open(my $f,"<","/dev/null");my $c="x";if(ioctl($f,0x5412,$c)){print "ok\n"}else{my %n=(1,"EPERM",25,"ENOTTY");print(($n{$!+0}//$!+0),"\n")}',
      ],
    };
  return undefined;
}

const tiocsti = tiocstiProbe();

test(
  "hostile: ioctl(TIOCSTI) is refused inside the sandbox (seccomp), ENOTTY on /dev/null outside",
  { skip: skip || (!tiocsti && "needs python3 or perl") },
  async () => {
    await withTmpDir("sbx-", async (dir) => {
      const { ws, policy } = layout(dir);
      const plan = await prepareSandbox(policy);
      const launch = sandboxedLaunch(plan, tiocsti!, ws);
      const r = spawnSync(launch.file, launch.args, { cwd: ws, encoding: "utf8" });
      assert.equal(r.stdout.trim(), "EPERM", r.stderr);
      const control = spawnSync(tiocsti!.file, tiocsti!.args, { encoding: "utf8" });
      assert.equal(control.stdout.trim(), "ENOTTY", "unfiltered, the kernel answers: not a terminal");
    });
  },
);
