// Node runtimes in the real extension host: an agent whose package.json engines the default `node` may not
// satisfy starts under the editor's own runtime, `acpThreads.nodePath` is honoured, and an agent no Node fits
// fails with what to install (never a silent crash) and offers "Install Node runtime", whichever engine ran it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { INSTALL_NODE } from "../../../src/vscode/node-runtime";
import { fakeNodePackage } from "../../fixtures/fake-agents/node-package";
import { api, waitFor, workspaceRoot } from "./helpers";
import { sessionOf } from "./session-of";

const agentText = (events: RuntimeEvent[]) =>
  events.map((e) => (e.type === "text" && e.stream === "output" ? e.text : "")).join("");

/** The fake agent behind a package asking for `engines`; it exits 9 when its Node is older than `major`. */
function needsNode(dir: string, name: string, engines: string, major: number) {
  const agent = join(__dirname, "../../fixtures/fake-agents/stdio-agent.main.js");
  return fakeNodePackage(join(dir, name), {
    name,
    engines,
    body:
      `if (Number(process.versions.node.split(".")[0]) < ${major}) { console.error("too old: " + process.version); process.exit(9); }\n` +
      `require(${JSON.stringify(agent)});`,
  });
}

async function spawn(agentId: string, task: string) {
  const { hub } = await api();
  const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId,
    task,
    mode: "session",
    cwd: workspaceRoot(),
  });
  const s = await sessionOf(hub, id);
  await waitFor("the first turn to end", () => s.status === "idle" || s.status === "failed");
  return s;
}

describe("Node runtimes for agents", () => {
  let dir: string;
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");
  const hostMajor = Number(process.versions.node.split(".")[0]);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "acp-host-node-"));
    const own = needsNode(dir, "own-runtime-agent", `>=${hostMajor}`, hostMajor);
    const far = needsNode(dir, "future-agent", ">=99", 0);
    await cfg().update(
      "agents",
      { own: { command: own.bin }, future: { command: far.bin } },
      vscode.ConfigurationTarget.Global,
    );
  });

  after(async () => {
    await cfg().update("agents", undefined, vscode.ConfigurationTarget.Global);
    await cfg().update("nodePath", undefined, vscode.ConfigurationTarget.Global);
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts an agent that needs this host's Node, whatever the default node is", async () => {
    const s = await spawn("own", "hello");
    assert.equal(s.status, "idle", s.statusDetail);
    assert.equal(agentText(s.events), "echo: hello");
    await s.close();
  });

  it("an agent no Node fits fails saying what to install, and offers to install it", async () => {
    const { hub } = await api();
    const seen = hub.broker.notifier.shown;
    const s = await spawn("future", "hello");
    assert.equal(s.status, "failed");
    const words = /future-agent 1\.0\.0 needs Node >=99 \(its package\.json engines\).*acp-threads runtime install 99/;
    assert.match(s.statusDetail ?? JSON.stringify(s.events), words);
    // the start error's action, as a window session's failed start offers it (also when a thread host ran it)
    const offer = await waitFor("the Install Node runtime notification", () =>
      hub.broker.notifier.since(seen).find((n) => n.items.includes(INSTALL_NODE)),
    );
    assert.equal(offer.severity, "error");
    assert.match(offer.message, words);
    await s.close();
  });

  it("acpThreads.nodePath is the Node used when the default does not fit", async () => {
    await cfg().update("nodePath", process.execPath, vscode.ConfigurationTarget.Global);
    const s = await spawn("future", "hi");
    assert.equal(s.status, "idle", s.statusDetail);
    assert.equal(agentText(s.events), "echo: hi");
    await s.close();
  });
});
