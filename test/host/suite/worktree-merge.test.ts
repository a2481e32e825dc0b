// Conflicts of "Apply Worktree to Workspace" in VS Code's merge editor (#25 item 2), in the real extension host with
// real git: the fake agent changes files in its worktree while the user changes the same files in the workspace;
// the apply leaves those alone; "Merge Worktree Conflicts…" opens the merge editor with base = the file at the
// worktree's base commit, Yours = the workspace's copy, Agent's worktree = the worktree's copy; nothing is written
// until the user completes the merge; the result lands in the workspace file as a recorded `apply-…` operation, whose
// hunks are then under review (Keep | Undo | applied from worktree …) like the apply's, and that Restore takes back.
// A file the agent deleted and the user changed is a choice (here: take the worktree's). Once settled, a file is not
// offered again.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import * as vscode from "vscode";
import type { MergeOutcome } from "../../../src/vscode/worktrees/merge-conflicts";
import { api, waitFor } from "./helpers";
import { seededRepo, spawn, turn } from "./worktree-helpers";

/** What a merge editor tab shows (TabInputTextMerge: not in the 1.95 typings). */
type MergeInput = { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri; result: vscode.Uri };

describe("worktree conflicts in the merge editor", () => {
  const seed = seededRepo("acp-host-wtmerge-", { "a.txt": "a\n", "m.txt": "one\ntwo\nthree\nfour\n", "d.txt": "d\n" });

  it("merges a conflicting file in the merge editor, records it, and Restore takes it back", async () => {
    const { repo } = seed;
    const { hub } = await api();
    const s = await spawn(repo);
    const ref = s.worktree!;
    assert.ok(ref, "the session has a worktree");
    // the agent: line two clashes with the user's edit, line four does not; d.txt deleted; a.txt plain
    await turn(s, `terminal printf 'one\\ntwo by the agent\\nthree\\nfour by the agent\\n' > m.txt`);
    await turn(s, "terminal rm d.txt");
    await turn(s, `write ${join(ref.path, "a.txt")} a by the agent`);
    assert.equal(readFileSync(join(ref.path, "m.txt"), "utf8"), "one\ntwo by the agent\nthree\nfour by the agent\n");
    assert.equal(existsSync(join(ref.path, "d.txt")), false);
    // the user, meanwhile
    const yours = "one\ntwo by the user\nthree\nfour\n";
    writeFileSync(join(repo, "m.txt"), yours);
    writeFileSync(join(repo, "d.txt"), "d by the user\n");

    const out = await vscode.commands.executeCommand<{ op?: string; applied: string[]; skipped: string[] }>(
      "acpThreads.applyWorktree",
      s.threadId,
      { yes: true },
    );
    assert.ok(out?.op);
    assert.deepEqual(out.applied, ["a.txt"]);
    assert.deepEqual([...out.skipped].sort(), ["d.txt", "m.txt"]);

    // the merge editor, on the worktree node's command
    const merging = vscode.commands.executeCommand<MergeOutcome>("acpThreads.mergeWorktreeConflicts", s.threadId, {
      files: ["m.txt"],
      from: out.op,
    });
    const result = await waitFor("the merge's result document", () =>
      vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === "file" && /acp-threads-merge-/.test(d.uri.fsPath) && basename(d.uri.fsPath) === "m.txt",
      ),
    );
    const tab = await waitFor("the merge editor's tab", () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => t.input as Partial<MergeInput> | undefined)
        .find((i) => i?.result?.toString() === result.uri.toString() && i.base && i.input1 && i.input2),
    );
    const text = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();
    assert.equal(await text(tab.base!), "one\ntwo\nthree\nfour\n", "base: the file at the worktree's base commit");
    assert.equal(await text(tab.input1!), yours, "Yours: the workspace's file");
    assert.equal(await text(tab.input2!), readFileSync(join(ref.path, "m.txt"), "utf8"), "the worktree's file");
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), yours, "nothing is written before the merge completes");

    // the user completes the merge (the merge editor may still be writing its start: retry until ours is saved)
    const merged = "one\ntwo by both\nthree\nfour by the agent\n";
    await waitFor(
      "the resolution to be saved",
      async () => {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(result.uri, new vscode.Range(0, 0, result.lineCount, 0), merged);
        await vscode.workspace.applyEdit(edit);
        return result.getText() === merged && (await result.save()) && result.getText() === merged;
      },
      10_000,
    );
    const done = await merging;
    assert.deepEqual(done?.merged, ["m.txt"]);
    assert.deepEqual(done.left, []);
    assert.equal(done.ops.length, 1);
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), merged, "the workspace file has the merged text");
    const mergeOp = hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === done.ops[0]);
    assert.equal(mergeOp?.type, "apply");
    assert.deepEqual(
      mergeOp.files.map((f) => f.path),
      [join(repo, "m.txt")],
      "the ledger lists the merged file",
    );
    assert.match(mergeOp.summary?.notes?.[0] ?? "", new RegExp(`m\\.txt: merged by the user, a conflict of ${out.op}`));
    // the merged file is reviewed like the apply: what the merge brought in (against the user's copy) is pending
    const mDoc = await vscode.workspace.openTextDocument(join(repo, "m.txt"));
    await vscode.window.showTextDocument(mDoc);
    assert.equal(mDoc.getText(), merged, "an open editor shows the merged text");
    const lenses = await waitFor("the merge's hunks under review", async () => {
      const all =
        (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", mDoc.uri)) ?? [];
      const ours = all.filter((l) => l.command?.command?.startsWith("acpThreads."));
      return ours.length === 6 ? ours : undefined;
    });
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command!.title.replace(/worktree .*/, "worktree …")]),
      [1, 3].flatMap((n) => [
        [n, "$(check) Keep"],
        [n, "$(discard) Undo"],
        [n, "applied from worktree …"],
      ]),
    );
    assert.equal((lenses[0]!.command!.arguments![0] as { op: string }).op, mergeOp.op, "the merge's own op");

    // deleted in the worktree, changed in the workspace: a choice, not a merge
    const del = await vscode.commands.executeCommand<MergeOutcome>("acpThreads.mergeWorktreeConflicts", s.threadId, {
      files: ["d.txt"],
      whole: "theirs",
    });
    assert.deepEqual(del?.merged, ["d.txt"]);
    assert.equal(existsSync(join(repo, "d.txt")), false, "the worktree's deletion was taken");
    // settled once, not offered again: each merge recorded the worktree's version it took in
    const again = await vscode.commands.executeCommand<MergeOutcome>("acpThreads.mergeWorktreeConflicts", s.threadId);
    assert.deepEqual(again, { merged: [], ops: [], left: [] });
    // …and a later Apply Worktree to Workspace has nothing left to apply (no conflict offered again)
    const reapply = await vscode.commands.executeCommand<{ applied: string[]; skipped: string[] }>(
      "acpThreads.applyWorktree",
      s.threadId,
      { yes: true },
    );
    assert.deepEqual(reapply, { applied: [], skipped: [] });

    // Restore (to before an operation: that one and every later one) takes each back, the last first
    await hub.ledger.restoreTurn(s.threadId, { op: del.ops[0] }, { yes: true });
    assert.equal(readFileSync(join(repo, "d.txt"), "utf8"), "d by the user\n", "Restore brought the file back");
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), merged, "the merge before it stays");
    await hub.ledger.restoreTurn(s.threadId, { op: done.ops[0] }, { yes: true });
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), yours, "Restore took the merge back");
    assert.equal(readFileSync(join(repo, "d.txt"), "utf8"), "d by the user\n");
    assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a by the agent", "the apply before the merges stays");
    assert.equal(await vscode.commands.executeCommand("acpThreads.discardWorktree", s.threadId, { yes: true }), true);
  });
});
