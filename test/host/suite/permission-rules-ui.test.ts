// Issue 33's rules as code in the editor: "Add permission rule…" saves a rule in its readable form to the data
// home's one rules file (the file `acp-threads permissions` reads), and the engine decides by it at once: a deny
// rule refuses what approve-all would allow, and the card says which rule decided.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { PermissionStore } from "../../../src/core/acp/permission-store";
import { api, spawnIdleFake, useFakeAgent, waitFor } from "./helpers";

describe("permission rules in the editor (#33)", () => {
  before(useFakeAgent);
  after(async () => {
    const { hub } = await api();
    const store = new PermissionStore(hub.home);
    await store.revokeIds((await store.rules()).map((r) => r.id));
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("a rule added in the editor is the rule the engine decides by, and the card names it", async () => {
    const { hub } = await api();
    // the fake agent's `ask execute` asks to run "A execute tool" (its title is the command line)
    const saved = await vscode.commands.executeCommand<{ id: string; effect: string; key: string }>(
      "acpThreads.addPermissionRule",
      { rule: 'deny execute "A execute tool"', agent: "fake" },
    );
    assert.equal(saved?.effect, "deny");
    const rules = await new PermissionStore(hub.home).rules();
    assert.deepEqual(
      rules.map((r) => [r.effect, r.agentId, r.kind, r.key, r.scope]),
      [["deny", "fake", "execute", "A execute tool", "*"]],
    );
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
    const s = await spawnIdleFake("ask execute");
    const decision = await waitFor("the permission decision", () =>
      hub.threads.read(s.threadId).records.find((r) => r.kind === "permission" && r.toolCallId === "ask-1"),
    );
    assert.equal(decision.kind === "permission" && decision.optionKind, "reject_once", "deny beats approve-all");
    assert.equal(decision.kind === "permission" && decision.rule, 'deny execute "A execute tool"');
    await s.close();
  });

  it("a rule that does not parse is refused and nothing is saved", async () => {
    const { hub } = await api();
    const before = (await new PermissionStore(hub.home).rules()).length;
    const out = await vscode.commands.executeCommand("acpThreads.addPermissionRule", { rule: "allow everything" });
    assert.equal(out, undefined);
    assert.equal((await new PermissionStore(hub.home).rules()).length, before);
  });
});
