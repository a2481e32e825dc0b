import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, waitFor, workspaceRoot } from "./helpers";

async function openFresh(name: string, text: string): Promise<vscode.TextEditor> {
  const path = join(workspaceRoot(), name);
  writeFileSync(path, text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  return vscode.window.showTextDocument(doc);
}

describe("workspace files served to agents", () => {
  it("serves an open editor's unsaved text, not the disk", async () => {
    const { hub } = await api();
    const ed = await openFresh("unsaved.txt", "on disk\n");
    await ed.edit((e) => e.insert(new vscode.Position(0, 0), "typed but not saved\n"));
    assert.ok(ed.document.isDirty);
    assert.equal(await hub.files.readText(ed.document.uri.fsPath), "typed but not saved\non disk\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("applies an agent write to an open editor without losing a concurrent user edit, then saves", async () => {
    const { hub } = await api();
    const ed = await openFresh("merge.js", "line1\nline2\nline3\nline4\n");
    const path = ed.document.uri.fsPath;
    const agentRead = await hub.files.readText(path);
    await ed.edit((e) => e.insert(new vscode.Position(0, 0), "// user comment\n")); // the user types meanwhile
    await hub.files.writeText(path, "line1\nline2\nLINE3 by agent\nline4\n", agentRead);
    const expected = "// user comment\nline1\nline2\nLINE3 by agent\nline4\n";
    assert.equal(ed.document.getText(), expected);
    assert.equal(readFileSync(path, "utf8"), expected);
    // the save has happened (the disk says so); the extension host hears of the clean state by a separate
    // message, which a loaded machine delivers after the save's reply
    await waitFor("the editor to be clean after the save", () => !ed.document.isDirty);
  });

  it("merges a 3,000-line write as two small edits: the user's edit, cursor and undo history survive", async () => {
    const { hub } = await api();
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\n`);
    const ed = await openFresh("big.ts", lines.join(""));
    const path = ed.document.uri.fsPath;
    const agentRead = await hub.files.readText(path);
    await ed.edit((e) => e.replace(new vscode.Range(1499, 0, 1499, 4), "USER")); // unsaved edit at line 1,500
    ed.selection = new vscode.Selection(1499, 2, 1499, 2);
    const next = lines.map((l, i) => (i === 9 ? "agent ten\n" : i === 2899 ? "agent 2900\n" : l)).join("");
    await hub.files.writeText(path, next, agentRead);
    const want = lines.map((l, i) =>
      i === 9 ? "agent ten\n" : i === 2899 ? "agent 2900\n" : i === 1499 ? "USER 1500\n" : l,
    );
    assert.equal(ed.document.getText(), want.join(""));
    assert.equal(readFileSync(path, "utf8"), want.join(""));
    assert.deepEqual([ed.selection.active.line, ed.selection.active.character], [1499, 2], "the cursor stays put");
    // the agent's write is one undo step; the user's own edit is still in the history below it
    await vscode.window.showTextDocument(ed.document);
    await vscode.commands.executeCommand("undo");
    assert.equal(ed.document.lineAt(9).text, "line 10");
    assert.equal(ed.document.lineAt(1499).text, "USER 1500");
    await vscode.commands.executeCommand("undo");
    assert.equal(ed.document.lineAt(1499).text, "line 1500");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  /** Starts a conflicting write and waits for the merge view's result document. */
  async function conflictingWrite(name: string, signal?: AbortSignal) {
    const { hub } = await api();
    const ed = await openFresh(name, "a\nb\nc\nd\n");
    const path = ed.document.uri.fsPath;
    const agentRead = await hub.files.readText(path);
    await ed.edit((e) => e.replace(new vscode.Range(1, 0, 1, 1), "user b"));
    const write = hub.files.writeText(path, "a\nagent b\nc\nD by agent\n", agentRead, signal);
    write.catch(() => undefined); // awaited by the test
    const result = await waitFor("the merge view's result", () =>
      vscode.workspace.textDocuments.find((d) => /acp-threads-merge-/.test(d.uri.fsPath) && d.uri.scheme === "file"),
    );
    const mergeTab = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => (t.input as { result?: vscode.Uri } | undefined)?.result?.toString() === result.uri.toString());
    // the merge editor loads the result and replaces the markers with its own start (conflicts left at base)
    const inMergeEditor = await waitFor(
      "the merge view to settle",
      () => (mergeTab() && !/^<<<<<<< /m.test(result.getText()) ? "merge" : undefined),
      5_000,
    ).catch(() => undefined);
    console.log(
      `      (conflict shown in ${inMergeEditor ? "VS Code's merge editor" : "a text editor with conflict markers"})`,
    );
    return { ed, write, result };
  }

  /** What the user does in the merge view: the result becomes `text`, then Complete Merge (a save). */
  async function settle(doc: vscode.TextDocument, text: string) {
    // the merge editor may still be writing its start into the result: retry until our text is what is saved
    await waitFor(
      "the resolution to be saved",
      async () => {
        // an earlier round's save completed the merge and the view closed its result: what it applied is checked by
        // the caller's assertions (a save of a closed document throws "Document has been closed")
        if (doc.isClosed) return true;
        const edit = new vscode.WorkspaceEdit();
        edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
        await vscode.workspace.applyEdit(edit);
        if (doc.getText() !== text) return false;
        const saved = await doc.save().then(
          (ok) => ok,
          (err: unknown) => (doc.isClosed ? true : Promise.reject(err)),
        );
        return saved && (doc.isClosed || doc.getText() === text);
      },
      10_000,
    );
  }

  it("a true conflict opens a merge view prefilled with the merge; completing it with the agent's side answers ok", async () => {
    const { ed, write, result } = await conflictingWrite("conflict-accept.txt");
    // prefilled with the agent's non-conflicting change; the conflict is open (merge editor: at base; else markers)
    assert.match(
      result.getText(),
      /^a\n(b|<<<<<<< yours \(unsaved\)\nuser b\n[\s\S]*=======\nagent b\n>>>>>>> agent)\nc\nD by agent\n$/,
    );
    assert.equal(ed.document.getText(), "a\nuser b\nc\nd\n", "nothing is applied before the user decides");
    await settle(result, "a\nagent b\nc\nD by agent\n");
    await write;
    assert.equal(ed.document.getText(), "a\nagent b\nc\nD by agent\n");
    assert.equal(readFileSync(ed.document.uri.fsPath, "utf8"), "a\nagent b\nc\nD by agent\n");
    await waitFor("the editor to be clean after the save", () => !ed.document.isDirty);
  });

  it("a conflict the user resolves their own way is applied, and the agent is told to read the file again", async () => {
    const { ed, write, result } = await conflictingWrite("conflict-mine.txt");
    await settle(result, "a\nuser b\nc\nD by agent\n");
    await assert.rejects(write, /merged this write .* kept their own text .* Read the file again/);
    assert.equal(ed.document.getText(), "a\nuser b\nc\nD by agent\n");
  });

  it("closing the merge view unresolved declines the write and leaves the buffer alone", async function () {
    // VS Code 1.96's merge editor counts its own start as a change, so closing it asks "save the changes?" (a
    // dialog the test host refuses; "Don't Save" then closes it). 1.139 closes it at once.
    if (/^1\.96\./.test(vscode.version)) this.skip();
    const { ed, write, result } = await conflictingWrite("conflict-close.txt");
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => {
        const input = t.input as { result?: vscode.Uri; uri?: vscode.Uri } | undefined;
        return (input?.result ?? input?.uri)?.toString() === result.uri.toString();
      });
    assert.ok(tabs.length > 0);
    await vscode.window.tabGroups.close(tabs);
    await assert.rejects(write, /declined this write/);
    assert.equal(ed.document.getText(), "a\nuser b\nc\nd\n");
    await vscode.window.showTextDocument(ed.document);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("a write the thread host stopped waiting for (its signal aborted) is never applied, even once the merge view is completed", async () => {
    // #35: the host took the write on the disk when the window's connection went; the merge view still open here
    // must not apply it late
    const gaveUp = new AbortController();
    const { ed, write, result } = await conflictingWrite("conflict-abandoned.txt", gaveUp.signal);
    gaveUp.abort();
    await settle(result, "a\nagent b\nc\nD by agent\n");
    await assert.rejects(write, /no longer waited for: not applied/);
    assert.equal(ed.document.getText(), "a\nuser b\nc\nd\n", "the buffer as the user left it");
    // a clean write and a closed file's write asked after the host gave up: nothing applied either
    await assert.rejects(
      (async () => {
        const { hub } = await api();
        return hub.files.writeText(ed.document.uri.fsPath, "a\nuser b\nc\nd\nclean\n", undefined, gaveUp.signal);
      })(),
      /not applied/,
    );
    assert.equal(ed.document.getText(), "a\nuser b\nc\nd\n");
    const { hub } = await api();
    const closed = join(workspaceRoot(), "abandoned-closed.txt");
    await assert.rejects(hub.files.writeText(closed, "late\n", undefined, gaveUp.signal), /not applied/);
    assert.throws(() => readFileSync(closed), "no file written");
    await vscode.window.showTextDocument(ed.document);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("writes closed files straight to disk, creating folders", async () => {
    const { hub } = await api();
    const path = join(workspaceRoot(), "new", "dir", "file.txt");
    await hub.files.writeText(path, "created\n", undefined);
    assert.equal(readFileSync(path, "utf8"), "created\n");
  });
});
