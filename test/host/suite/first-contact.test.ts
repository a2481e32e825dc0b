// Issue #27, first contact with the extension, in the real extension host: the agent picked in a new thread's
// panel stays picked when doctor's versions arrive later (they re-send the list), and a task is never run as a
// shell command: "Custom command line" is never preselected, runs only its own command field, and a run that
// exits non-zero shows as failed in the Sessions view.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { newThreadId } from "../../../src/core/store/thread-id";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import type { ComposerState, HostMessage } from "../../../src/webview/thread/protocol";
import { agentActionItems, agentFacts } from "../../../src/vscode/agent-actions";
import { api, sleep, useFakeAgent, waitFor } from "./helpers";

function draftPanel(): ComposerPanel & { posts: HostMessage[]; drafts(): NonNullable<ComposerState["draft"]>[] } {
  const posts: HostMessage[] = [];
  return {
    threadId: newThreadId(),
    posts,
    post: (m) => void posts.push(m),
    drafts: () => posts.flatMap((m) => (m.type === "composer" && m.state.draft ? [m.state.draft] : [])),
  };
}

async function openDraft() {
  const { hub } = await api();
  const panel = draftPanel();
  assert.ok(await hub.composer.isDraft(panel.threadId), "an unknown thread id is a new thread's panel");
  hub.composer.attach(panel);
  await waitFor("the panel's first agent list (which commands are on PATH)", () => panel.drafts().length > 0);
  return panel;
}

describe("first contact (#27)", () => {
  before(async () => {
    await useFakeAgent();
  });

  it("the agent picked before doctor's versions arrive stays picked (the pick never reverts)", async () => {
    const { hub } = await api();
    // doctor is held until after the pick: an agent whose --version answers once a gate file exists (doctor gives
    // each 5 s). Unheld, doctor's list could come before the pick (it did whenever the agents answered fast: the
    // test alone on a quiet machine), and the list "after the pick" was one sent before it.
    const dir = mkdtempSync(join(tmpdir(), "acp-doctor-gate-"));
    const gate = join(dir, "gate");
    const script = join(dir, "gated-agent.js");
    writeFileSync(
      script,
      `const fs = require("fs"); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) ` +
        `{ clearInterval(t); console.log("1.2.3"); } }, 20);`,
    );
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const agents = cfg.get<Record<string, unknown>>("agents") ?? {};
    const gated = { command: process.execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: "1" } };
    await cfg.update("agents", { ...agents, gated }, vscode.ConfigurationTarget.Global);
    try {
      hub.doctorAnswers.clear(); // doctor runs after the pick below, not an answer kept from an earlier panel
      const earlier = await openDraft();
      await hub.composer.handle(earlier, { type: "pickAgent", agentId: "fake" }); // the last pick: "fake"
      const panel = await openDraft();
      assert.equal(panel.drafts()[0]?.agentId, "fake", "the panel opens on the last agent used");
      assert.ok(!panel.drafts().some((d) => d.checked), "doctor still runs (held by the gated agent)");
      // the user picks another agent while doctor still runs
      const sent = panel.drafts().length;
      await hub.composer.handle(panel, { type: "pickAgent", agentId: "exec:codex" });
      writeFileSync(gate, "");
      const later = await waitFor("doctor's list with versions, sent after the pick", () => {
        const after = panel.drafts().slice(sent);
        return after.some((d) => d.checked) ? after : undefined;
      });
      assert.equal(later.at(-1)!.agentId, "exec:codex", "the list sent after the pick keeps the user's pick");
      assert.equal(later.at(-1)!.checked, true, "doctor's list says it is checked");
      // a later panel in this window starts from that pick too, and a refresh keeps each panel's own pick
      await hub.composer.handle(earlier, { type: "pickAgent", agentId: "fake" });
      hub.composer.refreshDrafts();
      assert.equal(panel.drafts().at(-1)!.agentId, "exec:codex");
      assert.equal(earlier.drafts().at(-1)!.agentId, "fake");
    } finally {
      writeFileSync(gate, "");
      await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
    }
  });

  it("never preselects Custom command line, and never runs the task text as a command", async () => {
    const { hub } = await api();
    const first = await openDraft();
    await hub.composer.handle(first, { type: "pickAgent", agentId: "exec:custom" }); // last used: custom
    const panel = await openDraft();
    assert.equal(panel.drafts()[0]!.agentId, undefined, "a command line is never picked for the user");
    const before = hub.live.execs().length;
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "explain what src/app.js does" }],
      agentId: "exec:custom",
    });
    const notice = panel.posts.find((m) => m.type === "composerNotice");
    assert.ok(notice?.type === "composerNotice" && /command line/.test(notice.message), JSON.stringify(notice));
    assert.equal(hub.live.execs().length, before, "nothing ran");
    assert.ok(await hub.composer.isDraft(panel.threadId), "the panel stays a new thread");
  });

  it("a custom command line runs its own field; exit 127 shows as failed in the Sessions view", async () => {
    const { hub } = await api();
    const panel = await openDraft();
    const before = new Set(hub.live.execs().map((e) => e.runId));
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "my check" }],
      agentId: "exec:custom",
      command: "acp-threads-no-such-command-27 --help", // a shell line: `sh -c` exits 127
    });
    assert.deepEqual(
      panel.posts.filter((m) => m.type === "composerNotice"),
      [],
      "no error",
    );
    const run = await waitFor("the run", () => hub.live.execs().find((e) => !before.has(e.runId)));
    assert.match(run.commandLine, /acp-threads-no-such-command-27/, "the command field ran");
    assert.doesNotMatch(run.commandLine, /my check/, "the prompt text did not");
    assert.equal(run.title, "my check", "the prompt text names the run");
    await waitFor("the run to end", () => run.status !== "running");
    assert.equal(run.status, "failed");
    assert.equal(run.exitCode, 127);
    const node: SessionNode = { type: "exec", runId: run.runId };
    const item = hub.tree.getTreeItem(node);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "error", "the failed icon, not a green check");
    assert.match(String(item.description), /exit 127/);
    run.terminal.dispose();
  });

  it("a Doctor row and a 'Not installed' row of the picker offer what to do with the agent (#37)", async () => {
    const { hub } = await api();
    const facts = await agentFacts(hub, "pi", "Pi", false);
    assert.deepEqual(
      agentActionItems(facts).map((i) => i.action),
      ["install", "copy", "docs"],
      "a preset that is not installed: install it, copy its install command, its docs",
    );
    assert.equal(facts.docs, "https://www.npmjs.com/package/pi-acp");
    const ready = await agentFacts(hub, "fake", "Fake agent", true);
    assert.deepEqual(
      agentActionItems(ready).map((i) => i.action),
      ["newThread"],
    );
    // Doctor's row (scripted: the row and the action picked)
    await vscode.env.clipboard.writeText("");
    assert.equal(await vscode.commands.executeCommand("acpThreads.doctor", "pi", "copy"), "copy");
    assert.equal(await vscode.env.clipboard.readText(), "npm i -g pi-acp");
    // the picker's "Not installed" row: the prompt box asks the host, which offers the same actions
    await vscode.env.clipboard.writeText("");
    const panel = await openDraft();
    // the registry's listing first: without it, the pick waits for it up to 3 s (agent-actions.ts), past the wait below
    await hub.registry.listing().catch(() => undefined);
    const offered = hub.composer.handle(panel, { type: "agentActions", agentId: "pi" });
    await sleep(1000); // the QuickPick shows (no API tells when): the registry's answer is already here
    await vscode.commands.executeCommand("workbench.action.quickOpenSelectNext"); // the second: Copy install command
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await offered;
    assert.equal(await vscode.env.clipboard.readText(), "npm i -g pi-acp");
  });

  it("open new-thread panels share doctor's answers: settings changes start no agent's --version again", async () => {
    // each open panel ran a whole doctor (every agent's --version) when it opened and on every settings change: the
    // host suite saw about four such processes a second, all run long, and the extension host went unresponsive
    const dir = mkdtempSync(join(tmpdir(), "acp-doctor-count-"));
    const runsFile = join(dir, "runs");
    const script = join(dir, "counted-agent.js");
    writeFileSync(script, `require("fs").appendFileSync(${JSON.stringify(runsFile)}, "ran\\n"); console.log("9.9.9");`);
    const runs = () => (existsSync(runsFile) ? readFileSync(runsFile, "utf8").split("\n").filter(Boolean).length : 0);
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const agents = cfg.get<Record<string, unknown>>("agents") ?? {};
    const panels = [await openDraft(), await openDraft(), await openDraft()];
    const checked = (p: (typeof panels)[number]) => p.drafts().filter((d) => d.checked);
    const hasCounted = (p: (typeof panels)[number]) =>
      checked(p).some((d) => d.agents.some((a) => a.id === "counted" && JSON.stringify(a).includes("9.9.9")));
    try {
      // a settings change with three panels open (and those earlier tests left): one doctor for all of them
      await cfg.update(
        "agents",
        { ...agents, counted: { command: process.execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: "1" } } },
        vscode.ConfigurationTarget.Global,
      );
      await waitFor("doctor's list with the counted agent's version in each panel", () => panels.every(hasCounted));
      assert.equal(runs(), 1, "the agent's --version ran once for every open panel");
      const before = panels.map((p) => checked(p).length);
      for (let i = 0; i < 4; i++) await cfg.update("watchdog.stallSeconds", 100 + i, vscode.ConfigurationTarget.Global);
      await waitFor("each panel's list again after each change", () =>
        panels.every((p, i) => checked(p).length >= before[i]! + 4),
      );
      // kept 20 s: a machine slow enough to take longer than that between two asks runs it once more
      assert.ok(runs() <= 2, `four settings changes with three panels open ran the agent's --version ${runs()} times`);
    } finally {
      await cfg.update("watchdog.stallSeconds", undefined, vscode.ConfigurationTarget.Global);
      await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
    }
  });

  it("open new-thread panels share the PATH lookups: settings changes look an agent's command up once", async () => {
    // each open panel scanned PATH on the host's thread for every agent when it opened and on every settings change
    // (quickAgentOptions: 14.7 s of the extension host's thread over a host-suite pass)
    const { hub } = await api();
    const command = `acp-path-counted-${process.pid}-${Date.now()}`; // on no PATH: each lookup tries every folder
    let lookups = 0;
    hub.pathAnswers.onLookup = (c) => void (c === command && lookups++);
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const agents = cfg.get<Record<string, unknown>>("agents") ?? {};
    const panels = [await openDraft(), await openDraft(), await openDraft()];
    const quick = (p: (typeof panels)[number]) =>
      p.drafts().filter((d) => !d.checked && d.agents.some((a) => a.id === "path-counted"));
    try {
      await cfg.update("agents", { ...agents, "path-counted": { command } }, vscode.ConfigurationTarget.Global);
      await waitFor("the quick list with the agent in each panel", () => panels.every((p) => quick(p).length > 0));
      const shown = panels.map((p) => quick(p)[0]!.agents.find((a) => a.id === "path-counted")!);
      assert.deepEqual(
        new Set(shown.map((a) => [a.available, a.hint].join())),
        new Set([`false,'${command}' not found`]),
      );
      assert.equal(lookups, 1, "the agent's command was looked up on PATH once for every open panel");
      const before = panels.map((p) => quick(p).length);
      for (let i = 0; i < 4; i++) await cfg.update("watchdog.stallSeconds", 100 + i, vscode.ConfigurationTarget.Global);
      await waitFor("each panel's quick list again after each change", () =>
        panels.every((p, i) => quick(p).length >= before[i]! + 4),
      );
      // kept 20 s (as doctor's answers): a machine slow enough to take longer than that between two asks looks again
      assert.ok(lookups <= 2, `four settings changes with three panels open looked the command up ${lookups} times`);
    } finally {
      hub.pathAnswers.onLookup = undefined;
      await cfg.update("watchdog.stallSeconds", undefined, vscode.ConfigurationTarget.Global);
      await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
    }
  });

  it("open new-thread panels share the installed agents' list: settings changes read no agents folder", async () => {
    // each list (quick and checked, per open panel, per settings change) read installed.json synchronously, twice
    const { hub } = await api();
    await hub.registry.installed(); // read once (kept until the folder changes)
    let reads = 0;
    hub.registry.onRead = () => void reads++;
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const panels = [await openDraft(), await openDraft(), await openDraft()];
    const lists = (p: (typeof panels)[number]) => p.drafts().filter((d) => d.checked).length; // the last of a post
    try {
      const before = panels.map(lists);
      for (let i = 0; i < 4; i++) await cfg.update("watchdog.stallSeconds", 100 + i, vscode.ConfigurationTarget.Global);
      await waitFor("each panel's lists again after each change", () =>
        panels.every((p, i) => lists(p) >= before[i]! + 4),
      );
      assert.equal(
        reads,
        0,
        `three open panels and four settings changes read the installed agents' file ${reads} times`,
      );
    } finally {
      hub.registry.onRead = undefined;
      await cfg.update("watchdog.stallSeconds", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
