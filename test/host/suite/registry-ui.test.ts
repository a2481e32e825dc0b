// The ACP Registry in the editor (#22), in the real extension host against the local registry fixture
// (test/fixtures/registry): Add agent installs a binary agent with progress, the agent shows like a preset in
// the new-thread picker and starts a thread; a newer registry version shows "update available" and
// Update agent installs it; a sha256 mismatch and a missing platform build fail with a clear error; offline the
// QuickPick says it shows the cached copy; Remove agent takes it off every list; an install and a removal by the
// CLI (another process) show in an open picker.
import assert from "node:assert/strict";
import { watch } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import { agentsLayout } from "../../../src/core/registry/layout";
import { readHomeSettings } from "../../../src/core/store/home-settings";
import { newThreadId } from "../../../src/core/store/thread-id";
import { configuredAgents } from "../../../src/vscode/agents";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { InstallOutcome } from "../../../src/vscode/registry/install-progress";
import { registryItems, registryPlaceholder } from "../../../src/vscode/registry/registry-items";
import type { AgentOption, HostMessage } from "../../../src/webview/thread/protocol";
import { binaryEntry, fakeAgentArchives } from "../../fixtures/registry/archives";
import { start, type RegistryServer } from "../../fixtures/registry/server";
import { api, waitFor, workspaceRoot } from "./helpers";
import { sessionOf } from "./session-of";
import { cli } from "./host-cli";

const cfg = () => vscode.workspace.getConfiguration("acpThreads");

function entry(reg: RegistryServer, id: string, version: string, sha256?: string) {
  const { tarGz } = fakeAgentArchives(version);
  reg.addFile(tarGz.name, tarGz.bytes);
  return binaryEntry(id, version, {
    url: reg.fileUrl(tarGz.name),
    cmd: "./bin/fake-agent",
    sha256: sha256 ?? tarGz.sha256,
  });
}

function draftPanel(): ComposerPanel & { posts: HostMessage[]; agents(): AgentOption[] } {
  const posts: HostMessage[] = [];
  return {
    threadId: newThreadId(),
    posts,
    post: (m) => void posts.push(m),
    agents: () => {
      const last = posts.filter((m) => m.type === "composer" && m.state.draft).pop();
      return last?.type === "composer" ? last.state.draft!.agents : [];
    },
  };
}

/** A new-thread panel attached, with its first agent list. */
async function openPanel() {
  const { hub } = await api();
  const panel = draftPanel();
  assert.ok(await hub.composer.isDraft(panel.threadId));
  hub.composer.attach(panel);
  await waitFor("its agent list", () => panel.agents().length > 0);
  return panel;
}

const installed = (o: InstallOutcome | undefined) => {
  assert.ok(o && "installed" in o, `installed: ${JSON.stringify(o)}`);
  return o.installed;
};

describe("ACP Registry: Add / Update / Remove agent (#22)", () => {
  let reg: RegistryServer;

  before(async () => {
    reg = await start();
    reg.setAgents([entry(reg, "reg-fake", "1.0.0")]);
    await cfg().update("registry.url", reg.url, vscode.ConfigurationTarget.Global);
    const { hub } = await api();
    // the CLI in a terminal reads the same registry: the setting is shared through the data home
    await waitFor("the URL in the home settings", () => readHomeSettings(hub.home).registryUrl === reg.url);
  });

  after(async () => {
    await cfg().update("registry.url", undefined, vscode.ConfigurationTarget.Global);
    await reg.close();
  });

  it("installs from the registry and lists the agent like a preset: picker, a thread that answers, its name in the Sessions view", async () => {
    const { hub } = await api();
    const panel = await openPanel();
    assert.ok(!panel.agents().some((a) => a.id === "reg-fake"), "not offered before the install");
    const outcome = await vscode.commands.executeCommand<InstallOutcome>("acpThreads.addAgent", "reg-fake");
    const a = installed(outcome);
    assert.equal(a.version, "1.0.0");
    assert.equal(a.kind, "binary");
    const option = await waitFor("the open picker to list it", () => panel.agents().find((o) => o.id === "reg-fake"));
    assert.equal(option.label, "Fake reg-fake");
    assert.ok(option.available);
    assert.match(option.detail ?? "", /1\.0\.0 · from the registry/);
    const choice = (await configuredAgents(hub.config, hub.registry)).find((c) => c.spec.id === "reg-fake");
    assert.equal(choice?.source, "installed");
    // a new thread with it: the answer comes from the installed launcher
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "hello registry agent" }],
      agentId: "reg-fake",
      folder: workspaceRoot(),
    });
    const s = await sessionOf(hub, panel.threadId, "the live session");
    await waitFor("the answer", () =>
      s.events.some((e) => e.type === "text" && e.stream === "output" && e.text.includes("hello registry agent")),
    );
    assert.equal(s.agent.displayName, "Fake reg-fake", "the Sessions view names the agent");
    const item = hub.tree.getTreeItem({ type: "live", threadId: s.threadId });
    assert.match(String(item.description), /Fake reg-fake/);
    await s.close();
  });

  it("shows update available and Update agent installs the newer version", async () => {
    const { hub } = await api();
    reg.setAgents([entry(reg, "reg-fake", "1.1.0")]);
    const listing = await hub.registry.listing();
    assert.equal(listing.source, "network");
    assert.equal((await hub.registry.updates()).get("reg-fake")?.version, "1.1.0");
    const panel = await openPanel();
    assert.equal(panel.agents().find((o) => o.id === "reg-fake")?.update, "1.1.0", "the picker marks it");
    const items = registryItems(listing, await hub.registry.installed());
    const it = items.find((i) => i.agent?.id === "reg-fake");
    assert.match(it?.detail ?? "", /update available: 1\.0\.0 → 1\.1\.0/);
    // the installed fake agent advertises no auth methods (asked at install)
    assert.match(it?.description ?? "", /1\.1\.0 · binary · MIT · auth: none/);
    const a = installed(await vscode.commands.executeCommand<InstallOutcome>("acpThreads.updateAgent", "reg-fake"));
    assert.equal(a.version, "1.1.0");
    assert.equal((await hub.registry.updates()).size, 0);
    await waitFor("the picker without the mark", () => !panel.agents().find((o) => o.id === "reg-fake")?.update);
  });

  it("a sha256 mismatch or no build for this platform fails with a clear error and installs nothing", async () => {
    const { hub } = await api();
    reg.setAgents([
      entry(reg, "reg-fake", "1.1.0"),
      entry(reg, "reg-badsha", "1.0.0", "0".repeat(64)),
      binaryEntry("reg-noplatform", "1.0.0", { url: reg.fileUrl("x.tar.gz"), cmd: "x" }, ["windows-aarch64"]),
    ]);
    await hub.registry.listing();
    const bad = await vscode.commands.executeCommand<InstallOutcome>("acpThreads.addAgent", "reg-badsha");
    assert.ok(bad && "error" in bad && !bad.cancelled);
    assert.match(bad.error, /sha256/i);
    const none = await vscode.commands.executeCommand<InstallOutcome>("acpThreads.addAgent", "reg-noplatform");
    assert.ok(none && "error" in none);
    assert.match(none.error, /platform|linux/i);
    const ids = (await hub.registry.installed()).map((a) => a.id);
    assert.deepEqual(ids, ["reg-fake"], "nothing else was installed");
  });

  it("offline, the QuickPick says it shows the cached copy", async () => {
    const { hub } = await api();
    reg.setDown(true);
    try {
      const listing = await hub.registry.listing();
      assert.equal(listing.source, "cache");
      const items = registryItems(listing, await hub.registry.installed());
      assert.equal(items[0]?.kind, vscode.QuickPickItemKind.Separator);
      assert.match(items[0]!.label, /unreachable: showing the cached copy/);
      // the placeholder names the copy once (the core's reason ends with "(using the copy of …)", #37)
      const placeholder = registryPlaceholder(listing);
      assert.match(placeholder, /^Registry unreachable: showing the cached copy \(.+\)\. Type to search\.$/);
      assert.doesNotMatch(placeholder, /using the/);
      assert.ok(
        items.some((i) => i.agent?.id === "reg-fake"),
        "the cached agents are still offered",
      );
    } finally {
      reg.setDown(false);
    }
  });

  it("Remove agent takes it off the lists", async () => {
    const { hub } = await api();
    assert.equal(await vscode.commands.executeCommand<boolean>("acpThreads.removeAgent", "reg-fake"), true);
    assert.ok(!(await configuredAgents(hub.config, hub.registry)).some((c) => c.spec.id === "reg-fake"));
    assert.deepEqual(await hub.registry.installed(), []);
  });

  it("this window's own install reads the installed agents' file once and tells the lists once", async () => {
    // the folder's watch also sees this window's own write of installed.json: it must not read and tell again
    const { hub } = await api();
    await hub.registry.installed(); // kept until the folder changes
    const { root, installedFile } = agentsLayout(hub.home);
    let landed = 0; // the same inotify watch as the service's: its events reach both in the same loop turn
    const seen = watch(root, { persistent: false }, (_e, f) => f === basename(installedFile) && landed++);
    let reads = 0;
    let told = 0;
    hub.registry.onRead = () => void reads++;
    const listening = hub.registry.onDidChange(() => void told++);
    try {
      installed(await vscode.commands.executeCommand<InstallOutcome>("acpThreads.addAgent", "reg-fake"));
      await waitFor("the watch to see installed.json land", () => landed > 0);
      await hub.registry.settled(); // the service's look at that event is done (its callback ran in the same turn)
      await waitFor("the lists told of the install", () => told > 0);
      assert.deepEqual({ reads, told }, { reads: 1, told: 1 });
    } finally {
      seen.close();
      listening.dispose();
      hub.registry.onRead = undefined;
      assert.equal(await vscode.commands.executeCommand<boolean>("acpThreads.removeAgent", "reg-fake"), true);
    }
  });

  it("an agent the CLI installs shows in an open new-thread panel without a read per list", async () => {
    // the installed list is kept until installed.json changes: a watch of the folder sees another process's install
    const { hub } = await api();
    const panel = await openPanel();
    assert.ok(!panel.agents().some((o) => o.id === "reg-fake"), "removed by the test before");
    const added = await cli(hub.home, ["agents", "add", "reg-fake"]);
    assert.equal(added.code, 0, added.stderr);
    const option = await waitFor("the open picker to list it", () => panel.agents().find((o) => o.id === "reg-fake"));
    assert.match(option.detail ?? "", /1\.1\.0 · from the registry/);
    assert.ok((await configuredAgents(hub.config, hub.registry)).some((c) => c.spec.id === "reg-fake"));
    const removed = await cli(hub.home, ["agents", "remove", "reg-fake"]);
    assert.equal(removed.code, 0, removed.stderr);
    await waitFor("the open picker without it", () => !panel.agents().some((o) => o.id === "reg-fake"));
    assert.deepEqual(await hub.registry.installed(), []);
  });
});
