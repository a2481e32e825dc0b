// A multi-root window (#35): the `multiroot` pass (test/host/run.mjs) opens a `.code-workspace` of two folders. What a
// user of it meets, each through the extension's commands: a session started in the first folder writes a file in
// the second (allowed without asking, as the path guard takes both folders), the thread records both folders, the
// window's Restore of that turn and the CLI's `restore --turn 1` put the second folder's file back, and a write
// outside both folders is refused. From the palette, a new thread works in the active editor's folder (else the first)
// unless its panel's folder picker names the other, and its header names that folder. A new thread the thread host runs (the default on POSIX)
// reaches the second folder too, and the window's Restore of its turn puts the second folder's file back.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HostMessage } from "../../../src/webview/thread/protocol";
import { sessionOf, type TestSession } from "./session-of";
import { api, spawnIdleFake, useFakeAgent, waitFor } from "./helpers";
import { cli, hostRunSessions, ranInHost, sendNewInHost } from "./host-cli";
import { turn } from "./worktree-helpers";

/** The window's two folders: [first, second]. */
function twoFolders(): [string, string] {
  const f = (vscode.workspace.workspaceFolders ?? []).map((w) => w.uri.fsPath);
  assert.equal(f.length, 2, `the multiroot pass opens two folders, not ${f.length}`);
  return [f[0]!, f[1]!];
}

/** Runs a turn and tells whether the person was asked anything before it ended (the permission broker's prompts). */
async function turnAsked(s: TestSession, text: string): Promise<boolean> {
  const { hub } = await api();
  let ended = false;
  const done = turn(s, text).then(() => (ended = true));
  const first = await waitFor("the turn to end or to ask", () =>
    ended ? "ended" : hub.broker.pendingFor(s.threadId).length ? "asked" : undefined,
  );
  if (first === "asked") for (const p of hub.broker.pendingFor(s.threadId)) hub.broker.answer(p.requestId, "no");
  await done;
  return first === "asked";
}

const permissionMode = (mode: string) =>
  vscode.workspace.getConfiguration("acpThreads").update("permissionMode", mode, vscode.ConfigurationTarget.Global);

describe("a multi-root window: a session's writes in the second folder (#35)", () => {
  const BEFORE = "the second folder's file\n";
  const AGENT = "written by the agent in the second folder";
  let s: TestSession;
  let file: string;
  let outside: string;

  before(async () => {
    await useFakeAgent();
    await permissionMode("approve-all");
    outside = realpathSync(mkdtempSync(join(tmpdir(), "acp-multiroot-outside-")));
    const [, second] = twoFolders();
    file = join(second, "src", "second.txt");
    writeFileSync(file, BEFORE);
    s = await spawnIdleFake(); // acpThreads.spawn in the first folder
  });
  after(async () => {
    if (s?.isOpen) await s.close();
    await permissionMode("approve-reads");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(outside, { recursive: true, force: true });
  });

  it("a write in the second folder by a session of the first is allowed without asking, written and recorded", async () => {
    const { hub } = await api();
    const [first] = twoFolders();
    assert.equal(s.cwd, first, "the session works in the first folder");
    assert.equal(await turnAsked(s, `write ${file} ${AGENT}`), false, "approve-all: a write inside the workspace");
    assert.equal(readFileSync(file, "utf8"), AGENT);
    const turn1 = await waitFor("the ledger's turn 1", () =>
      hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === "turn-1" && o.summary),
    );
    assert.deepEqual(
      turn1.files.map((f) => [f.path, f.via]),
      [[file, ["fs_write"]]],
    );
  });

  it("the thread records both folders", async () => {
    const { hub } = await api();
    const meta = await waitFor("the thread's folders", () => {
      const m = hub.threads.read(s.threadId).metadata;
      return m.folders ? m : undefined;
    });
    assert.equal(meta.cwd, twoFolders()[0]);
    assert.deepEqual(meta.folders, twoFolders());
  });

  it("the window's Restore of that turn puts the second folder's file back, and its undo takes it back again", async () => {
    const op = await vscode.commands.executeCommand<string>("acpThreads.restoreTurn", s.threadId, 1, { yes: true });
    assert.match(op ?? "", /^restore-/, "restored, recorded as an operation");
    assert.equal(readFileSync(file, "utf8"), BEFORE);
    await vscode.commands.executeCommand("acpThreads.restoreTurn", s.threadId, { op }, { yes: true });
    assert.equal(readFileSync(file, "utf8"), AGENT, "the restore undone");
  });

  it("a write outside both folders is asked, marked outside, and refused though allowed: nothing is written", async () => {
    const { hub } = await api();
    const escape = join(outside, "escape.txt");
    const done = turn(s, `write ${escape} out of both folders`);
    // outside the workspace even approve-all asks (#33), marked; allowed by the person, the path guard refuses it
    const asked = await waitFor("the outside write to be asked", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.deepEqual(asked.outside, [escape], "marked outside the workspace");
    hub.broker.answer(asked.requestId, asked.options.find((o) => o.kind === "allow_once")!.optionId);
    await done;
    assert.equal(existsSync(escape), false, "nothing written outside both folders");
    assert.equal(readFileSync(file, "utf8"), AGENT, "the second folder's file is as the agent left it");
  });

  it("the CLI's `restore THREAD --turn 1` of the window's thread puts the second folder's file back too", async () => {
    const { hub } = await api();
    await s.close(); // the CLI restores a thread no session holds
    const out = await cli(hub.home, ["restore", s.threadId, "--turn", "1"]);
    assert.equal(out.code, 0, out.stderr || out.stdout);
    assert.match(out.stdout, /restored 1 file\(s\)/);
    assert.equal(readFileSync(file, "utf8"), BEFORE);
  });
});

describe("a multi-root window: the folder a new thread from the palette works in (#35)", () => {
  before(async () => {
    await useFakeAgent();
    await permissionMode("approve-all");
  });
  after(async () => {
    await permissionMode("approve-reads");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  /** "Spawn coding agent" from the palette: the new thread's panel, and the draft state the host posted to it. */
  async function paletteDraft() {
    const { hub } = await api();
    const threadId = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    assert.ok(threadId && (await hub.composer.isDraft(threadId)), "a new-thread panel");
    await waitFor("its panel", () => hub.panels.get(threadId));
    const posts: HostMessage[] = [];
    const panel = { threadId, post: (m: HostMessage) => void posts.push(m) };
    hub.composer.attach(panel);
    const state = await waitFor("its draft state", () => {
      const m = posts.find((p) => p.type === "composer" && p.state.draft);
      return m?.type === "composer" ? m.state.draft : undefined;
    });
    return { panel, state };
  }

  /** What the header of thread `id`'s panel names: the folder its init (or a pick since) sent. */
  const headerFolder = async (id: string, folder: string) => {
    const { hub } = await api();
    await waitFor(`the header to name ${folder}`, () => hub.panels.shown(id)?.cwd === folder).catch((err: Error) => {
      throw new Error(`${err.message}; it names ${hub.panels.shown(id)?.cwd}`);
    });
  };

  it("offers both folders with the active editor's chosen (an editor of the second is active), named in the header", async () => {
    const [first, second] = twoFolders();
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(join(second, "README.md")));
    const { panel, state } = await paletteDraft();
    assert.deepEqual(state.folders, [first, second]);
    assert.equal(state.folder, second, "the active editor's folder, not the first");
    await headerFolder(panel.threadId, second);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("with no editor of a workspace folder active, the first folder", async () => {
    const [first] = twoFolders();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { panel, state } = await paletteDraft();
    assert.equal(state.folder, first);
    await headerFolder(panel.threadId, first);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("the header follows the folder picked in the panel; a pick of a folder outside the workspace is ignored", async () => {
    const { hub } = await api();
    const [first, second] = twoFolders();
    const { panel } = await paletteDraft(); // no editor active: the first folder
    const tab = hub.panels.panelOf(panel.threadId)!; // the panel's webview, as its folder picker posts to the host
    await headerFolder(panel.threadId, first);
    await hub.composer.handle(tab, { type: "pickFolder", folder: tmpdir() });
    assert.equal(hub.panels.shown(panel.threadId)?.cwd, first, "not a workspace folder: the header is unchanged");
    await hub.composer.handle(tab, { type: "pickFolder", folder: second });
    await headerFolder(panel.threadId, second);
    // what the panel's webview gets when drawn again (a reload), and the draft's state when the agents change
    assert.equal(hub.composer.draftHeader(panel.threadId).cwd, second);
    const posts: HostMessage[] = [];
    hub.composer.attach({ threadId: panel.threadId, post: (m) => void posts.push(m) });
    const state = await waitFor("the draft state again", () => {
      const m = posts.find((p) => p.type === "composer" && p.state.draft);
      return m?.type === "composer" ? m.state.draft : undefined;
    });
    assert.equal(state.folder, second, "the picker's folder as the host keeps it");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("a new thread's panel restored after a reload comes back in the folder it was in; one outside the workspace is not used", async () => {
    const { hub } = await api();
    const [first, second] = twoFolders();
    // What VS Code does on reload: a fresh panel of our view type with the state its webview saved, handed to the
    // registered serializer. A new thread's webview keeps its folder in that state (main.ts), as picked or opened.
    const restore = async (draftFolder: string) => {
      const threadId = randomUUID(); // never started: no thread is stored under it
      const panel = vscode.window.createWebviewPanel("acpThreads.thread", "restored", vscode.ViewColumn.One);
      await hub.panels.deserializeWebviewPanel(panel, { threadId, draftFolder });
      return { threadId, panel };
    };
    const kept = await restore(second);
    await headerFolder(kept.threadId, second);
    assert.ok(await hub.composer.isDraft(kept.threadId), "a new thread's panel again");
    assert.equal(hub.composer.draftHeader(kept.threadId).cwd, second, "what a Send that names no folder runs in");
    const outside = await restore(tmpdir());
    await headerFolder(outside.threadId, first);
    kept.panel.dispose();
    outside.panel.dispose();
  });

  it("a Send with the second folder picked works in the second, and reaches the first too", async () => {
    const { hub } = await api();
    const [first, second] = twoFolders();
    const target = join(first, "src", "from-second.txt");
    const { panel } = await paletteDraft();
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: `write ${target} written from the second folder's session` }],
      agentId: "fake",
      mode: "session",
      folder: second,
    });
    const s = await sessionOf(hub, panel.threadId, "the live session");
    assert.equal(s.cwd, second, "the session works in the folder picked");
    await waitFor("the first turn to end", () => s.status === "idle" && existsSync(target));
    assert.equal(readFileSync(target, "utf8"), "written from the second folder's session");
    assert.equal(hub.broker.pendingFor(s.threadId).length, 0, "nothing asked");
    assert.deepEqual(hub.threads.read(s.threadId).metadata.folders, [second, first]);
    await s.close();
  });
});

describe("a multi-root window: a new thread in the thread host reaches the second folder (#35)", () => {
  hostRunSessions();
  before(() => permissionMode("approve-all"));
  after(() => permissionMode("approve-reads"));

  it("its write in the second folder is allowed without asking and written; the thread records both folders; the window's Restore puts the file back", async () => {
    const { hub } = await api();
    const [first, second] = twoFolders();
    const target = join(second, "src", "from-the-host.txt");
    writeFileSync(target, "before the host's turn\n");
    const id = await sendNewInHost("fake", [{ type: "text", text: `write ${target} written by the host's session` }]);
    await ranInHost(id, /^write /);
    assert.equal(readFileSync(target, "utf8"), "written by the host's session");
    const meta = hub.threads.read(id).metadata;
    assert.equal(meta.cwd, first);
    assert.deepEqual(meta.folders, [first, second]);
    // the panel's Revert of the hosted turn (the window's command; `yes`: the confirmation answered)
    const turn1 = await waitFor("the ledger's turn 1, as the window reads it", () =>
      hub.ledger.ledger.read(id).ops.find((o) => o.op === "turn-1" && o.summary),
    );
    assert.deepEqual(
      turn1.files.map((f) => f.path),
      [target],
    );
    const op = await vscode.commands.executeCommand<string>("acpThreads.restoreTurn", id, 1, { yes: true });
    assert.match(op ?? "", /^restore-/, "restored, recorded as an operation");
    assert.equal(readFileSync(target, "utf8"), "before the host's turn\n");
  });
});
