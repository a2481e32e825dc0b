import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, workspaceRoot } from "./helpers";

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
    assert.equal(ed.document.isDirty, false);
    assert.equal(readFileSync(path, "utf8"), expected);
  });

  it("refuses to overwrite a dirty document the agent did not read when the change conflicts", async () => {
    const { hub } = await api();
    const ed = await openFresh("dirty.txt", "a\nb\nc\n");
    await ed.edit((e) => e.replace(new vscode.Range(1, 0, 1, 1), "user b"));
    await assert.rejects(hub.files.writeText(ed.document.uri.fsPath, "a\nagent b\nc\n", undefined), /unsaved changes/);
    assert.equal(ed.document.getText(), "a\nuser b\nc\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("writes closed files straight to disk, creating folders", async () => {
    const { hub } = await api();
    const path = join(workspaceRoot(), "new", "dir", "file.txt");
    await hub.files.writeText(path, "created\n", undefined);
    assert.equal(readFileSync(path, "utf8"), "created\n");
  });
});
