// Restore leaves a true state (#27 item 8), in the real extension host: after Restore the turn's row says
// "restored" with nothing left to review (and Undo restore gives the count back); Keep all keeps every pending
// change of a turn as the individual keeps would; the restore preview names the later turns' files it takes back
// too, and its Restore item restores.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { planRestore } from "../../../src/core/ledger/restore";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { restorePreviewItems } from "../../../src/vscode/ledger/review-commands";
import { api, sleep, useFakeAgent, waitFor, workspaceRoot } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const BEFORE = lines("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa");
const AFTER = BEFORE.replace("beta", "BETA (agent)").replace("iota", "IOTA (agent)");

async function storedThread(title: string): Promise<string> {
  const { hub } = await api();
  const h = new ThreadStore(hub.home).create({
    agent: { id: "fake", name: "Fake agent", command: "/bin/true" },
    mode: "acp",
    cwd: workspaceRoot(),
    repoRoot: null,
    gitHead: null,
    title,
  });
  h.close();
  return h.threadId;
}

/** Records `write()` as turn `turn` of `threadId` in the extension's ledger. */
async function recordTurn(threadId: string, turn: number, write: () => void): Promise<void> {
  const { hub } = await api();
  const capture = await hub.ledger.ledger.beginTurn({
    threadId,
    turn,
    cwd: workspaceRoot(),
    agent: { id: "fake", name: "Fake agent" },
  });
  write();
  await capture.end("end_turn");
}

/** A file that turn 1 of a new stored thread changed (two hunks), the thread watched, its document shown with lenses. */
async function watchedTurn(name: string): Promise<{ threadId: string; doc: vscode.TextDocument }> {
  const { hub } = await api();
  const file = join(workspaceRoot(), "src", `${name}.txt`);
  writeFileSync(file, BEFORE);
  const threadId = await storedThread(name);
  await recordTurn(threadId, 1, () => writeFileSync(file, AFTER));
  hub.ledger.inline.watch(threadId);
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  await waitFor("the Keep / Undo lenses", async () => (await lensesOf(doc)).length === 6);
  return { threadId, doc };
}

async function lensesOf(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
  const all =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", doc.uri)) ?? [];
  return all.filter((l) => l.command?.command?.startsWith("acpThreads."));
}

describe("restore leaves a true state (#27 item 8)", () => {
  before(useFakeAgent);
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("after Restore the turn's row says restored with nothing to review; Undo restore brings the count back", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "src", "restore-state.txt");
    writeFileSync(file, BEFORE);
    const threadId = await storedThread("restore state");
    await recordTurn(threadId, 1, () => writeFileSync(file, AFTER));
    hub.ledger.inline.watch(threadId);
    const [row] = await hub.ledger.turnChanges(threadId);
    assert.equal(row.pending, 2, "two hunks to review");
    assert.equal(row.restoredBy, undefined);
    const op = await vscode.commands.executeCommand<string>("acpThreads.restoreTurn", threadId, 1, { yes: true });
    assert.match(op!, /^restore-/);
    assert.equal(readFileSync(file, "utf8"), BEFORE);
    const [restored] = await hub.ledger.turnChanges(threadId);
    assert.equal(restored.restoredBy, op, "the row names the restore");
    assert.equal(restored.pending, 0, "no '2 to review' left after the restore");
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    assert.deepEqual(await lensesOf(doc), [], "no Keep / Undo for a restored turn");
    await waitFor("the restored thread to leave the inline review", () => !hub.ledger.inline.watched.has(threadId));
    await vscode.commands.executeCommand("acpThreads.restoreTurn", threadId, { op }, { yes: true });
    assert.equal(readFileSync(file, "utf8"), AFTER);
    const [back] = await hub.ledger.turnChanges(threadId);
    assert.deepEqual([back.restoredBy, back.pending], [undefined, 2], "undoing the restore puts the turn back");
    await waitFor("the thread back under inline review", () => hub.ledger.inline.watched.has(threadId));
  });

  it("Keep all keeps every pending change of the turn, recorded like each Keep", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "src", "keep-all.txt");
    const created = join(workspaceRoot(), "src", "keep-all-new.txt");
    rmSync(created, { force: true });
    writeFileSync(file, BEFORE);
    const threadId = await storedThread("keep all");
    await recordTurn(threadId, 1, () => {
      writeFileSync(file, AFTER);
      writeFileSync(created, "a new file\n");
    });
    hub.ledger.inline.watch(threadId);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await waitFor("the Keep / Undo lenses", async () => (await lensesOf(doc)).length === 6);
    assert.equal((await hub.ledger.turnChanges(threadId))[0].pending, 3);
    const kept = await vscode.commands.executeCommand<number>("acpThreads.keepTurn", threadId, 1);
    assert.equal(kept, 3);
    assert.equal((await hub.ledger.turnChanges(threadId))[0].pending, 0);
    await waitFor("the lenses to go", async () => (await lensesOf(doc)).length === 0);
    const view = hub.ledger.ledger.read(threadId);
    assert.deepEqual([...view.kept.get(`turn-1\0${file}`)!].sort(), [0, 1], "one keep record per hunk");
    assert.deepEqual([...view.kept.get(`turn-1\0${created}`)!], [0]);
    assert.equal(readFileSync(file, "utf8"), AFTER, "keeping changes nothing on disk");
    assert.equal(await vscode.commands.executeCommand<number>("acpThreads.keepTurn", threadId, 1), 0);
  });

  it("the restore preview names the later turns' files it takes back too; its Restore item restores", async () => {
    const { hub } = await api();
    const a = join(workspaceRoot(), "src", "preview-a.txt");
    const b = join(workspaceRoot(), "src", "preview-b.txt");
    rmSync(b, { force: true });
    writeFileSync(a, "a0\n");
    const threadId = await storedThread("restore preview");
    await recordTurn(threadId, 1, () => writeFileSync(a, "a1\n"));
    await recordTurn(threadId, 2, () => writeFileSync(b, "b2\n"));
    const plan = await planRestore(hub.ledger.ledger, threadId, { turn: 1 });
    const items = restorePreviewItems(plan, workspaceRoot(), "before turn 1");
    assert.deepEqual(
      items.map((i) => [i.kind === vscode.QuickPickItemKind.Separator ? "---" : "", i.label, i.description ?? ""]),
      [
        ["", "$(history) Restore", "put 2 file(s) back to before turn 1 (1 of them from later turn 2)"],
        ["---", "Turn 1", ""],
        ["", "$(discard) revert  src/preview-a.txt", ""],
        ["---", "Later turn 2 — also restored", ""],
        ["", "$(trash) delete  src/preview-b.txt", "turn 2"],
      ],
    );
    // an editor open on the later turn's file, which the restore deletes (its text must not count as the file's)
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(b), { preview: false });
    // the real preview: its first item (Restore) restores
    const done = vscode.commands.executeCommand<string>("acpThreads.restoreTurn", threadId, 1);
    await sleep(500);
    await waitFor("the preview to accept Restore", async () => {
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return Promise.race([done.then(() => true), sleep(300).then(() => false)]);
    });
    assert.match((await done) ?? "", /^restore-/);
    assert.equal(readFileSync(a, "utf8"), "a0\n");
    assert.equal(existsSync(b), false, "the later turn's new file is gone too");
    // Undo restore brings both back although b's editor still shows its old text
    const undo = await vscode.commands.executeCommand<string>(
      "acpThreads.restoreTurn",
      threadId,
      { op: await done },
      {
        yes: true,
      },
    );
    assert.match(undo ?? "", /^restore-/, "not 'nothing to restore'");
    assert.equal(readFileSync(a, "utf8"), "a1\n");
    assert.equal(readFileSync(b, "utf8"), "b2\n");
  });

  it("a watched thread whose changes are all kept leaves the inline review, and its lenses go", async () => {
    const { hub } = await api();
    const { threadId, doc } = await watchedTurn("leave-kept");
    // each hunk kept through its own lens, as the user does
    const keep = async () => {
      const lens = (await lensesOf(doc)).find((l) => l.command?.command === "acpThreads.keepChange")!;
      await vscode.commands.executeCommand(lens.command!.command, ...lens.command!.arguments!);
    };
    await keep();
    await waitFor("one hunk left", async () => (await lensesOf(doc)).length === 3);
    await sleep(300); // the pending check after the first keep has answered
    assert.ok(hub.ledger.inline.watched.has(threadId), "a hunk still pending: it stays");
    await keep();
    await waitFor("the thread to leave the review", () => !hub.ledger.inline.watched.has(threadId));
    assert.deepEqual(await lensesOf(doc), [], "no lens left");
    assert.equal(await hub.ledger.comments.threadOf(doc.uri), threadId, "a comment on the kept code still goes to it");
  });

  for (const how of ["deleted", "archived"] as const)
    it(`a watched thread with changes still pending leaves the inline review when it is ${how}`, async () => {
      const { hub } = await api();
      const { threadId, doc } = await watchedTurn(`leave-${how}`);
      await sleep(300);
      assert.ok(hub.ledger.inline.watched.has(threadId), "pending: it stays");
      if (how === "deleted") await hub.engine.call({ op: "threads.delete", threadId });
      else await hub.threads.patchMetadataAsync(threadId, { archived: true });
      await waitFor(`the ${how} thread to leave the review`, () => !hub.ledger.inline.watched.has(threadId));
      assert.deepEqual(await lensesOf(doc), [], "its lenses go");
    });
});
