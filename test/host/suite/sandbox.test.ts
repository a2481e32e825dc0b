// Issue 34 in the real extension host: acpThreads.sandbox.mode contains the hostile agent's escape (a write outside
// the workspace, a read of a planted key, a write through a workspace symlink home), the header says
// "sandboxed"; a machine that cannot sandbox refuses the session with what to install (nothing runs); a
// workspace's settings cannot turn the sandbox off; Best of N candidates are sandboxed by default. The agent gets
// a temp HOME and TMPDIR of its own through its env (the extension host's HOME is the real one).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CandidateSummary } from "../../../src/core/worktree/candidates";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { CompareView } from "../../../src/vscode/worktrees/compare-view";
import { egressServers } from "../../fixtures/sandbox-world";
import { api, waitFor, withWorkspaceSettings } from "./helpers";
import { hostedNow, sessionOf, sessionOfDraft, type TestSession } from "./session-of";
import { canSandbox, useHostile, world, type World } from "./hostile-world";

const cfg = () => vscode.workspace.getConfiguration("acpThreads");

async function spawnHostile(cwd: string): Promise<TestSession> {
  const { hub } = await api();
  const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId: "hostile",
    task: "",
    mode: "session",
    cwd,
  });
  return await sessionOf(hub, id);
}

async function answerOf(s: TestSession, prompt: string): Promise<string> {
  const done = new Promise<void>((r) => s.onTurnDone(() => r()));
  await s.prompt(prompt);
  await done;
  const texts = (await s.transcript()).filter((e) => e.type === "text" && e.stream === "output");
  return texts.map((e) => (e as { text: string }).text).join("");
}

describe("the OS sandbox in the editor (#34)", function () {
  let w: World;
  before(function () {
    if (!canSandbox) this.skip();
  });
  beforeEach(() => (w = world()));
  afterEach(async () => {
    await cfg().update("sandbox.mode", undefined, vscode.ConfigurationTarget.Global);
    await cfg().update("sandbox.denyRead", undefined, vscode.ConfigurationTarget.Global);
    await cfg().update("sandbox.allowedHosts", undefined, vscode.ConfigurationTarget.Global);
    rmSync(w.dir, { recursive: true, force: true });
  });

  it("acpThreads.sandbox.mode workspace-write: the hostile agent's escape is contained, the header says sandboxed", async () => {
    const { hub } = await api();
    await useHostile(w);
    await cfg().update("sandbox.mode", "workspace-write", vscode.ConfigurationTarget.Global);
    const planted = join(w.dir, "notes");
    writeFileSync(planted, "do not read");
    await cfg().update("sandbox.denyRead", [planted], vscode.ConfigurationTarget.Global);
    const s = await spawnHostile(w.ws);
    try {
      await waitFor("the session to be idle", () => s.status === "idle" && s.thread);
      assert.equal(await answerOf(s, "escape"), "escape: out=EROFS secret=ENOENT link=EROFS");
      assert.equal(s.sandboxed, true);
      assert.equal(existsSync(join(w.home, "outside.txt")), false, "nothing written outside the workspace");
      assert.equal(existsSync(join(w.home, "via-link.txt")), false, "nothing written through the symlink");
      // the agent's own shell (as claude-agent-acp's Bash runs): the denyRead path reads as missing
      assert.match(await answerOf(s, `shell cat ${planted}`), /shell done/);
      const shellOut = JSON.stringify(await s.transcript());
      assert.doesNotMatch(shellOut, /do not read/, "a denyRead path is not readable");
      await waitFor("the header to say sandboxed", () => hub.panels.shown(s.threadId)?.sandboxed);
    } finally {
      await s.close();
    }
  });

  it("acpThreads.sandbox.allowedHosts: only the listed host answers, through the proxy; a refused one is a panel notice", async () => {
    await useHostile(w);
    await cfg().update("sandbox.mode", "workspace-write", vscode.ConfigurationTarget.Global);
    await egressServers(async (secret, web) => {
      await cfg().update("sandbox.allowedHosts", [`127.0.0.1:${web}`], vscode.ConfigurationTarget.Global);
      const s = await spawnHostile(w.ws);
      try {
        await waitFor("the session to be idle", () => s.status === "idle" && s.thread);
        const notices: string[] = [];
        s.onEvents((events) => {
          for (const e of events) if (e.type === "notice") notices.push(e.title);
        });
        const ok = `http://127.0.0.1:${web}/ok`;
        const no = `http://localhost:${web}/no`;
        const said = await answerOf(s, `net ${secret} ${ok} ${no}`);
        const why = `${said} ${s.status} ${JSON.stringify(await s.transcript()).slice(-1500)}`;
        assert.match(said, new RegExp(`^net: direct=(ECONNREFUSED|ENETUNREACH) ${ok}=200 ${no}=403$`), why);
        assert.deepEqual(notices, [`blocked by the sandbox: connect localhost:${web}`]);
      } finally {
        await s.close();
      }
      const egress = join(w.tmp, `acp-threads-egress-${process.getuid?.() ?? 0}`);
      assert.deepEqual(existsSync(egress) ? readdirSync(egress) : [], [], "the proxy's folder went with the session");
    });
  });

  it("the composer: the draft's toggle follows the setting; sent checked, the session runs sandboxed", async () => {
    const { hub } = await api();
    await useHostile(w);
    await cfg().update("sandbox.mode", "workspace-write", vscode.ConfigurationTarget.Global);
    const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    assert.ok(draft && (await hub.composer.isDraft(draft)), "a new-thread panel");
    await waitFor("its panel", () => hub.panels.get(draft));
    const posted: unknown[] = [];
    const panel: ComposerPanel = { threadId: draft, post: (m) => posted.push(m) };
    hub.composer.attach(panel);
    const state = await waitFor("the draft's state", () =>
      posted
        .map((m) => m as { type: string; state?: { draft?: { sandbox?: unknown } } })
        .find((m) => m.type === "composer" && m.state?.draft?.sandbox),
    );
    assert.deepEqual(state.state!.draft!.sandbox, { on: true, unattended: true });
    // what the webview posts when the box is sent with “sandboxed” clicked on
    const held = hostedNow(hub);
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "escape" }],
      agentId: "hostile",
      mode: "session",
      sandbox: true,
    });
    const s = await sessionOfDraft(hub, draft, held, "the live session");
    try {
      await waitFor("the turn to end", () => s.status === "idle" && s.thread && s.lastPrompt !== undefined);
      assert.equal(s.sandboxed, true);
      assert.equal(existsSync(join(w.home, "outside.txt")), false, "nothing written outside the workspace");
    } finally {
      await s.close();
    }
  });

  it("a machine that cannot sandbox: the session does not start, the panel says what to install", async () => {
    const bin = join(w.dir, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node")); // a PATH without bwrap
    await useHostile(w, bin);
    await cfg().update("sandbox.mode", "workspace-write", vscode.ConfigurationTarget.Global);
    const s = await spawnHostile(w.ws);
    await waitFor("the session to fail", () => s.status === "failed");
    assert.match(
      s.statusDetail ?? "",
      /bubblewrap \(bwrap\) is not installed: install bubblewrap \(`apt install bubblewrap`/,
    );
    assert.equal(s.thread, undefined, "no thread, no agent");
    assert.equal(s.sandboxed, false);
    const events = await s.transcript();
    assert.ok(
      events.some((e) => e.type === "error" && /apt install bubblewrap/.test(e.message)),
      "the panel says it",
    );
  });

  it("a workspace's settings cannot turn the sandbox off (a notice names it)", async () => {
    const { hub } = await api();
    await cfg().update("sandbox.mode", "workspace-write", vscode.ConfigurationTarget.Global);
    const seen = hub.broker.notifier.shown;
    const settings = { "acpThreads.sandbox.mode": "off", "acpThreads.sandbox.unattended": false };
    await withWorkspaceSettings(settings, async () => {
      assert.equal(hub.config.sandbox, "workspace-write");
      assert.equal(hub.config.sandboxUnattended, true);
      const notice = await waitFor("the notice", () =>
        hub.broker.notifier.since(seen).find((n) => n.message.includes("acpThreads.sandbox.mode")),
      );
      assert.match(notice.message, /ignores them there/);
    });
  });

  it("Best of N, scripted with the default: its candidates run sandboxed", async () => {
    const { hub } = await api();
    await useHostile(w);
    const repo = join(w.dir, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: repo });
    git("init", "-q", "-b", "main");
    symlinkSync(w.home, join(repo, "home-link"));
    git("add", "-A");
    git("commit", "-qm", "seed");
    const out = await vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
      "acpThreads.bestOfN",
      { agents: ["hostile"], runs: 1, prompt: "escape", cwd: repo },
    );
    assert.ok(out);
    const [c] = out.summaries;
    try {
      assert.equal(c!.answer, "escape: out=EROFS secret=ENOENT link=EROFS");
      assert.equal(hub.live.get(c!.threadId!)?.sandboxed, true, "the candidate is sandboxed");
      assert.equal(existsSync(join(w.home, "outside.txt")), false);
    } finally {
      out.view.dispose();
      await hub.live.get(c!.threadId!)?.close();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});
