/**
 * The editor's sandbox decision (#34, src/vscode/sandbox.ts, no vscode module): asked on a machine that cannot
 * sandbox rejects with what to install (the session does not start); the unattended default there runs
 * unsandboxed and says so once; `off` and an explicit no stay unsandboxed; Doctor's row says how or why not.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { once } from "node:events";
import { connect } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { closeSandbox } from "../../../src/core/sandbox/plan";
import type { RuntimeEvent } from "../../../src/core/model/events";
import {
  editorSandbox,
  sandboxAsked,
  sandboxBlockedNotices,
  sandboxDoctorRow,
  startSandboxed,
} from "../../../src/vscode/sandbox";
import { withTmpDir } from "../../fixtures/fake-agents/tmp-dir";
import { noBwrap, sandboxWorld } from "../../fixtures/sandbox-world";

type Settings = Parameters<typeof editorSandbox>[0];
const settings = (s: Partial<Settings> = {}): Settings => ({
  sandbox: "off",
  sandboxDenyRead: [],
  sandboxAllowedHosts: [],
  sandboxUnattended: true,
  ...s,
});

/** The editor's input for a session in a sandbox world (this PATH: bwrap found). */
function editorInput(dir: string) {
  const { home, ws, tmp } = sandboxWorld(dir);
  const env = { HOME: home, TMPDIR: tmp, PATH: process.env.PATH };
  return { roots: [ws], agentId: "hostile", env, dataHome: join(dir, "data") };
}

/** A PATH with node alone on it: no bwrap to find. */
function nodeOnly(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

test("the toggle's default: the setting, unless the user chose", () => {
  assert.equal(sandboxAsked({ sandbox: "workspace-write" }, undefined), true);
  assert.equal(sandboxAsked({ sandbox: "off" }, undefined), undefined);
  assert.equal(sandboxAsked({ sandbox: "workspace-write" }, false), false);
  assert.equal(sandboxAsked({ sandbox: "off" }, true), true);
});

test("no bwrap: asked rejects with the install hint; the unattended default runs unsandboxed and says so once", () =>
  withTmpDir("sbx-editor-", async (dir) => {
    const { home, ws, tmp } = sandboxWorld(dir);
    const env = { HOME: home, TMPDIR: tmp, PATH: nodeOnly(dir) };
    const base = { roots: [ws], agentId: "hostile", env, dataHome: join(dir, "data") };
    await assert.rejects(
      editorSandbox(settings({ sandbox: "workspace-write" }), { ...base, unattended: false }, () => {}),
      (err: Error & { code?: string }) =>
        err.code === "sandbox_unavailable" && /apt install bubblewrap/.test(err.message),
    );
    await assert.rejects(editorSandbox(settings(), { ...base, asked: true, unattended: true }, () => {}));
    const told: string[] = [];
    assert.equal(await editorSandbox(settings(), { ...base, unattended: true }, (m) => told.push(m)), undefined);
    assert.equal(await editorSandbox(settings(), { ...base, unattended: true }, (m) => told.push(m)), undefined);
    assert.equal(told.length, 1, "said once");
    assert.match(told[0]!, /not sandboxed: bubblewrap \(bwrap\) is not installed/);
    assert.equal(await editorSandbox(settings(), { ...base, unattended: false }, () => {}), undefined, "off");
  }));

test(
  "with bwrap: the setting, the unattended default, an explicit no and the unattended setting off",
  { skip: noBwrap },
  () =>
    withTmpDir("sbx-editor-", async (dir) => {
      const base = editorInput(dir);
      const denied = join(dir, "notes");
      const plan = await editorSandbox(
        settings({ sandbox: "workspace-write", sandboxDenyRead: [denied] }),
        { ...base, unattended: false },
        () => {},
      );
      assert.ok(plan, "sandboxed by the setting");
      assert.ok(plan.policy.denyRead.includes(denied), "denyRead reaches the policy");
      assert.ok(await editorSandbox(settings(), { ...base, unattended: true }, () => {}), "the unattended default");
      assert.equal(await editorSandbox(settings(), { ...base, asked: false, unattended: true }, () => {}), undefined);
      const noDefault = settings({ sandboxUnattended: false });
      assert.equal(await editorSandbox(noDefault, { ...base, unattended: true }, () => {}), undefined);
    }),
);

test("Doctor's sandbox row: how, or why not", () => {
  // the engine's report (sandbox.availability): with bubblewrap, what its seccomp filter blocks here
  const seccomp = "seccomp (x86_64): unix sockets and TIOCSTI blocked";
  const ok = sandboxDoctorRow({ available: true, tool: { kind: "bwrap", path: "/usr/bin/bwrap" }, seccomp }, "off");
  assert.equal(ok.label, "$(pass) Sandbox");
  assert.match(ok.detail, /^bubblewrap \(\/usr\/bin\/bwrap\): writes only/);
  assert.ok(ok.detail.includes(`; ${seccomp}; egress: all`), ok.detail);
  assert.match(ok.description, /acpThreads\.sandbox\.mode: off/);
  const missing = sandboxDoctorRow(
    { available: false, problem: "bubblewrap (bwrap) is not installed: install" },
    "off",
  );
  assert.match(ok.description, /egress: all$/);
  const limited = sandboxDoctorRow({ available: true, tool: { kind: "bwrap", path: "/b" } }, "off", [
    "a.com",
    "*.b.com",
  ]);
  assert.match(limited.description, /egress: 2 hosts via proxy \(a\.com, \*\.b\.com\)$/);
  assert.match(limited.detail, /egress: 2 hosts via proxy/);
  assert.equal(missing.label, "$(error) Sandbox");
  assert.equal(missing.detail, "bubblewrap (bwrap) is not installed: install");
});

test(
  "acpThreads.sandbox.allowedHosts: the plan runs a proxy; refused hosts become one panel notice each; it closes with the run",
  { skip: noBwrap },
  () =>
    withTmpDir("sbx-editor-", async (dir) => {
      const base = { ...editorInput(dir), unattended: false };
      const plan = await editorSandbox(
        settings({ sandbox: "workspace-write", sandboxAllowedHosts: ["api.example.com"] }),
        base,
        () => {},
      );
      assert.ok(plan?.proxy, "a proxy runs for the session");
      assert.deepEqual(plan.policy.allowedHosts, ["api.example.com"]);
      const notices: RuntimeEvent[] = [];
      sandboxBlockedNotices(plan, (n) => notices.push(n));
      const socket = (plan.proxy.listen as { unix: string }).unix;
      for (let i = 0; i < 2; i++) {
        const c = connect(socket);
        c.end("CONNECT evil.test:443 HTTP/1.1\r\n\r\n");
        c.resume();
        await once(c, "close");
      }
      assert.deepEqual(
        notices.map((n) => n.type === "notice" && n.title),
        ["blocked by the sandbox: connect evil.test:443"],
      );
      let exit!: () => void;
      const run = await startSandboxed(plan, async () => ({ exited: new Promise<void>((r) => (exit = r)) }));
      assert.ok(existsSync(socket), "open while the run runs");
      exit();
      await run.exited;
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(existsSync(socket), false, "closed once it exited");
      await closeSandbox(plan);
      await assert.rejects(
        editorSandbox(settings({ sandbox: "workspace-write", sandboxAllowedHosts: ["http://x"] }), base, () => {}),
        /sandbox allowed host 'http:\/\/x' is not valid/,
      );
    }),
);
