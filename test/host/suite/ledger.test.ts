// Checkpoints, review and provenance inside the real extension host: a live session's fs write lands in the
// edit ledger and opens in the diff editor; Keep / Undo per hunk through the CodeLens commands; the provenance
// hover (and its ageing out after a hand edit); restore to before a turn refusing over a later edit, forced,
// then undone.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { ThreadStore } from "../../../src/core/store/thread-store";
import type { ChangeTarget } from "../../../src/vscode/ledger/inline-review";
import { api, ledgerDiff, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot, writePastThread } from "./helpers";
import { sessionOf } from "./session-of";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const BEFORE = lines("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa");
const AFTER = lines(
  "alpha",
  "BETA (agent)",
  "gamma",
  "delta",
  "epsilon",
  "zeta",
  "eta",
  "theta",
  "IOTA (agent)",
  "kappa",
);

/** A stored thread whose turn 1 rewrote `file` from BEFORE to AFTER, recorded by the extension's ledger. */
async function agentTurn(file: string): Promise<string> {
  const { hub } = await api();
  writeFileSync(file, BEFORE);
  const h = new ThreadStore(hub.home).create({
    agent: { id: "fake", name: "Fake agent", command: "/bin/true" },
    mode: "acp",
    cwd: workspaceRoot(),
    repoRoot: null,
    gitHead: null,
    title: "ledger host test",
  });
  h.close();
  const capture = await hub.ledger.ledger.beginTurn({
    threadId: h.threadId,
    turn: 1,
    cwd: workspaceRoot(),
    agent: { id: "fake", name: "Fake agent" },
  });
  writeFileSync(file, AFTER);
  await capture.end("end_turn");
  return h.threadId;
}

async function lensesOf(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
  const all =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", doc.uri)) ?? [];
  return all.filter((l) => l.command?.command?.startsWith("acpThreads."));
}

async function hoverText(doc: vscode.TextDocument, line: number): Promise<string> {
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>(
      "vscode.executeHoverProvider",
      doc.uri,
      new vscode.Position(line, 1),
    )) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === "string" ? c : "value" in c ? c.value : ""))
    .join("\n");
}

describe("checkpoints, review and provenance", () => {
  before(async () => {
    await useFakeAgent();
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("a live session's write is recorded as its turn and opens in the diff editor", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "src", "ledger-live.txt");
    writeFileSync(file, "old text\n");
    const viewId = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
      agentId: "fake",
      task: `write ${file} new text from the agent`,
      mode: "session",
      cwd: workspaceRoot(),
    });
    const s = await sessionOf(hub, viewId!);
    await waitFor("the turn to end", () => s.status === "idle" || s.status === "failed");
    assert.equal(s.status, "idle", s.statusDetail);
    const threadId = s.threadId;
    const turn = await waitFor("the ledger's turn 1", () =>
      hub.ledger.ledger.read(threadId).ops.find((o) => o.op === "turn-1" && o.summary),
    );
    assert.deepEqual(
      turn.files.map((f) => [f.path, f.via]),
      [[file, ["fs_write"]]],
    );
    assert.equal(readFileSync(file, "utf8"), "new text from the agent");
    await vscode.commands.executeCommand("acpThreads.reviewTurn", threadId, 1);
    const input = await ledgerDiff();
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), "old text\n");
    assert.equal(input.modified.fsPath, file);
    await s.close();
  });

  it("a review from the thread panel opens in the thread's own group, not a new group beside it (#37)", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "src", "ledger-group.txt");
    writeFileSync(file, "before\n");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const s = await spawnIdleFake(`write ${file} after`);
    await waitFor("the turn to end", () => s.status === "idle");
    await waitFor("the ledger's turn 1", () =>
      hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === "turn-1" && o.summary),
    );
    const panel = hub.panels.open(s.threadId);
    await vscode.commands.executeCommand("workbench.action.joinAllGroups");
    panel.reveal(undefined, false);
    await waitFor("the panel focused", () => panel.active);
    const groups = vscode.window.tabGroups.all.length;
    await vscode.commands.executeCommand("acpThreads.reviewTurn", s.threadId, 1);
    const diff = await waitFor("the turn's diff", () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs.map((t) => ({ g, t })))
        .find(({ t }) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.fsPath === file),
    );
    assert.equal(vscode.window.tabGroups.all.length, groups, "no new editor group");
    assert.equal(diff.g.viewColumn, panel.viewColumn, "the diff is a tab of the thread's group");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await s.close();
  });

  it("Keep and Undo per hunk from the CodeLens; later hand edits elsewhere survive", async () => {
    const file = join(workspaceRoot(), "src", "ledger-hunks.txt");
    await agentTurn(file);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const lenses = await waitFor("two hunks' lenses", async () => {
      const l = await lensesOf(doc);
      return l.length === 6 ? l : undefined;
    });
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command!.title]),
      [
        [1, "$(check) Keep"],
        [1, "$(discard) Undo"],
        [1, "turn 1 · Fake agent"],
        [8, "$(check) Keep"],
        [8, "$(discard) Undo"],
        [8, "turn 1 · Fake agent"],
      ],
    );
    // a hand edit elsewhere, then keep the second hunk and undo the first
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, doc.lineAt(4).range, "epsilon (mine)");
    await vscode.workspace.applyEdit(edit);
    const [keep2] = lenses.filter((l) => l.range.start.line === 8 && l.command!.command === "acpThreads.keepChange");
    const [undo1] = lenses.filter((l) => l.range.start.line === 1 && l.command!.command === "acpThreads.undoChange");
    await vscode.commands.executeCommand("acpThreads.keepChange", ...(keep2.command!.arguments as [ChangeTarget]));
    await vscode.commands.executeCommand("acpThreads.undoChange", ...(undo1.command!.arguments as [ChangeTarget]));
    const expected = AFTER.replace("BETA (agent)", "beta").replace("epsilon", "epsilon (mine)");
    assert.equal(doc.getText(), expected);
    assert.equal(readFileSync(file, "utf8"), expected, "the undo is saved");
    assert.deepEqual(await lensesOf(doc), [], "nothing left to review");
  });

  it("the threads' folders and titles kept for the hovers and lenses are bounded: the most recently asked", async () => {
    const { hub } = await api();
    const host = hub.ledger.host as unknown as { threadTitle(id: string): Promise<string | undefined> };
    const kept = 256; // ledger-feature.ts INFO_KEPT
    const ids = Array.from({ length: kept + 40 }, () => writePastThread(hub.home, 1));
    for (const id of ids) assert.ok(await host.threadTitle(id), "each thread's title is found");
    assert.equal(hub.ledger.infoKept, kept, "no more than INFO_KEPT kept");
    assert.ok(await host.threadTitle(ids[0]!), "one let go is read again when asked");
  });

  it("hovering an agent's line names the agent, the turn and the thread; a hand edit ages it out", async () => {
    const file = join(workspaceRoot(), "src", "ledger-hover.txt");
    await agentTurn(file);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const text = await hoverText(doc, 8);
    assert.match(text, /Written by \*\*Fake agent\*\* in turn 1 of “ledger host test”/);
    assert.match(text, /\[Open turn\]\(command:acpThreads\.openTurn\?/);
    assert.doesNotMatch(await hoverText(doc, 0), /Written by/);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, doc.lineAt(8).range, "iota, rewritten by hand");
    await vscode.workspace.applyEdit(edit);
    assert.doesNotMatch(await hoverText(doc, 8), /Written by/);
    assert.match(await hoverText(doc, 1), /Written by \*\*Fake agent\*\*/);
  });

  it("restore to before a turn: refused over a later edit, forced, then undone", async () => {
    const file = join(workspaceRoot(), "src", "ledger-restore.txt");
    const threadId = await agentTurn(file);
    writeFileSync(file, AFTER + "a line added by hand\n");
    const refused = await vscode.commands.executeCommand("acpThreads.restoreTurn", threadId, 1, { yes: true });
    assert.equal(refused, undefined);
    assert.equal(readFileSync(file, "utf8"), AFTER + "a line added by hand\n");
    const op = await vscode.commands.executeCommand<string>("acpThreads.restoreTurn", threadId, 1, {
      yes: true,
      force: true,
    });
    assert.match(op!, /^restore-/);
    assert.equal(readFileSync(file, "utf8"), BEFORE);
    await vscode.commands.executeCommand("acpThreads.restoreTurn", threadId, { op }, { yes: true });
    assert.equal(readFileSync(file, "utf8"), AFTER + "a line added by hand\n");
  });
});
