/**
 * What the thread panel's code block buttons do: Copy (clipboard), Insert at cursor (the text editor the
 * user was last in, since the panel itself has focus), and Apply to file: VS Code's diff editor with the file
 * as it is vs. the block as its new content, with Accept / Reject in the editor title. Accept writes it through
 * a WorkspaceEdit (undoable) and saves.
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import * as vscode from "vscode";
import type { ProposedContent } from "./proposed-content";

export class CodeActions implements vscode.Disposable {
  #last: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  readonly #sub = vscode.window.onDidChangeActiveTextEditor((e) => {
    if (e && e.document.uri.scheme !== "output") this.#last = e;
  });

  constructor(private readonly proposed: ProposedContent) {}

  /**
   * The editor a code block goes to: the active one, else the one the user was last in (brought back to the
   * front with its cursor if the panel now covers it).
   */
  async targetEditor(): Promise<vscode.TextEditor | undefined> {
    const active = vscode.window.activeTextEditor;
    if (active) return active;
    const last = this.#last;
    if (!last || last.document.isClosed) return undefined;
    if (vscode.window.visibleTextEditors.includes(last)) return last;
    const selections = last.selections;
    const again = await vscode.window.showTextDocument(last.document, {
      viewColumn: last.viewColumn,
      preserveFocus: true,
    });
    again.selections = selections;
    return again;
  }

  /** Copies `text` (a code block's, or a whole message's) and says so in the status bar; returns those words. */
  async copy(text: string, what: "code" | "message" = "code"): Promise<string> {
    await vscode.env.clipboard.writeText(text);
    const words = what === "message" ? "Message copied" : "Code copied";
    vscode.window.setStatusBarMessage(`$(check) ${words}`, 2000);
    return words;
  }

  async insert(text: string): Promise<boolean> {
    const editor = await this.targetEditor();
    if (!editor) {
      void vscode.window.showWarningMessage(
        "Open a file and place the cursor where the code should go, then try again.",
      );
      return false;
    }
    const ok = await editor.edit((b) => editor.selections.forEach((s) => b.replace(s, text)));
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn });
    return ok;
  }

  /** Opens the review diff for applying `text` to `path` (relative to `cwd`) or to a file the user picks. */
  async apply(text: string, path: string | undefined, cwd: string): Promise<vscode.Uri | undefined> {
    const target = path ? vscode.Uri.file(resolve(cwd, path)) : await this.#pickTarget(cwd);
    if (!target) return undefined;
    // The file name comes from the agent's text: never outside the thread's folder or the workspace.
    const roots = [cwd, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)];
    if (!roots.some((r) => !relative(r, target.fsPath).startsWith("..") && !isAbsolute(relative(r, target.fsPath)))) {
      void vscode.window.showErrorMessage(`Not applying the code block: ${target.fsPath} is outside the workspace.`);
      return undefined;
    }
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
    const exists =
      !!open ||
      (await vscode.workspace.fs.stat(target).then(
        () => true,
        () => false,
      ));
    const oldText = open
      ? open.getText()
      : exists
        ? new TextDecoder().decode(await vscode.workspace.fs.readFile(target))
        : null;
    const newText = oldText?.endsWith("\n") && !text.endsWith("\n") ? `${text}\n` : text;
    const rel = vscode.workspace.asRelativePath(target);
    const uris = await this.proposed.review(target.fsPath, oldText, newText, `Apply code block to ${rel}`);
    const right = uris[uris.length - 1];
    const forget = () => uris.forEach((u) => this.proposed.forget(u));
    this.proposed.setActions(right, {
      accept: async () => {
        forget();
        await writeWhole(target, newText, exists);
        void vscode.window.setStatusBarMessage(`$(check) Applied to ${rel}`, 3000);
      },
      reject: forget,
    });
    return right;
  }

  async #pickTarget(cwd: string): Promise<vscode.Uri | undefined> {
    const editor = vscode.window.activeTextEditor ?? this.#last;
    if (editor && !editor.document.isClosed && editor.document.uri.scheme === "file") return editor.document.uri;
    const files = await vscode.workspace.findFiles("**/*", "**/{node_modules,.git,dist,out}/**", 5000);
    const picked = await vscode.window.showQuickPick(
      files.map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u })),
      { title: "Apply the code block to which file?", matchOnDescription: true },
    );
    return picked?.uri ?? (files.length ? undefined : vscode.Uri.file(join(cwd, "untitled.txt")));
  }

  dispose(): void {
    this.#sub.dispose();
  }
}

async function writeWhole(uri: vscode.Uri, text: string, exists: boolean): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  if (exists) {
    const doc = await vscode.workspace.openTextDocument(uri);
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  } else {
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), text);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not write ${uri.fsPath}`);
  await (await vscode.workspace.openTextDocument(uri)).save();
}
