/**
 * Editor state for `@` completion and the context menus: the last non-empty selection (the thread panel takes
 * focus, so the active editor is gone by the time `@` is typed), open editors, and diagnostics, each turned
 * into a context ref with the text captured now (unsaved buffers included).
 */
import * as vscode from "vscode";
import type { ContextItem, LineRange } from "../../core/model/context";
import { fileRef, fileUri, folderRef, PROBLEMS_URI, selectionRef } from "../../core/prompt/refs";

const SEVERITY = ["error", "warning", "info", "hint"] as const;
/** The Problems mention lists at most this many diagnostics (errors first). */
export const MAX_PROBLEMS = 100;
/** At most this many problems of one file, so one noisy file cannot crowd the others out of the list. */
export const MAX_PROBLEMS_PER_FILE = 20;

export function lineRangeOf(sel: vscode.Range): LineRange {
  // A selection ending at column 0 of the next line covers the lines above it only.
  const end = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  return { start: sel.start.line + 1, end: end + 1 };
}

/** A selection as a context item: the selected lines' current text, whole lines so the range matches. */
export function selectionItem(doc: vscode.TextDocument, sel: vscode.Range): ContextItem {
  const range = lineRangeOf(sel);
  const text = doc.getText(new vscode.Range(range.start - 1, 0, range.end, 0));
  return { ...selectionRef(doc.uri.fsPath, range), content: text };
}

export class EditorContext implements vscode.Disposable {
  #last: { uri: vscode.Uri; selection: vscode.Selection } | undefined;
  readonly #subs: vscode.Disposable[] = [];

  constructor() {
    const remember = (e: vscode.TextEditor | undefined) => {
      if (e && e.document.uri.scheme === "file" && !e.selection.isEmpty)
        this.#last = { uri: e.document.uri, selection: e.selection };
    };
    remember(vscode.window.activeTextEditor);
    this.#subs.push(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document.uri.scheme !== "file") return;
        if (!e.selections[0]!.isEmpty) this.#last = { uri: e.textEditor.document.uri, selection: e.selections[0]! };
        else if (e.kind !== undefined && this.#last?.uri.toString() === e.textEditor.document.uri.toString())
          this.#last = undefined; // the user clicked away in that editor: the selection is gone
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (this.#last?.uri.toString() === d.uri.toString()) this.#last = undefined;
      }),
    );
  }

  /** The active editor's selection, else the last one made in an editor that is still open. */
  selection(): ContextItem | undefined {
    const active = vscode.window.activeTextEditor;
    if (active && active.document.uri.scheme === "file" && !active.selection.isEmpty)
      return selectionItem(active.document, active.selection);
    const last = this.#last;
    const doc = last && vscode.workspace.textDocuments.find((d) => d.uri.toString() === last.uri.toString());
    return doc && last ? selectionItem(doc, last.selection) : undefined;
  }

  /** Files open in editor tabs (all groups), most recently active group first, no duplicates. */
  openEditors(): vscode.Uri[] {
    const seen = new Set<string>();
    const out: vscode.Uri[] = [];
    const groups = [...vscode.window.tabGroups.all].sort((a, b) => Number(b.isActive) - Number(a.isActive));
    for (const g of groups)
      for (const tab of [...g.tabs].sort((a, b) => Number(b.isActive) - Number(a.isActive))) {
        const input = tab.input;
        const uri = input instanceof vscode.TabInputText ? input.uri : undefined;
        if (uri?.scheme === "file" && !seen.has(uri.toString())) {
          seen.add(uri.toString());
          out.push(uri);
        }
      }
    return out;
  }

  dispose(): void {
    for (const d of this.#subs.splice(0)) d.dispose();
  }
}

/** Errors and warnings of the workspace, errors first. */
export function workspaceProblems(): { uri: vscode.Uri; d: vscode.Diagnostic }[] {
  const out = vscode.languages
    .getDiagnostics()
    .flatMap(([uri, ds]) => ds.map((d) => ({ uri, d })))
    .filter((x) => x.uri.scheme === "file" && x.d.severity <= vscode.DiagnosticSeverity.Warning);
  return out.sort((a, b) => a.d.severity - b.d.severity || a.uri.fsPath.localeCompare(b.uri.fsPath));
}

function describe(uri: vscode.Uri, d: vscode.Diagnostic): string {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  const tag = [d.source, code].filter((x) => x !== undefined && x !== "").join(" ");
  return `${vscode.workspace.asRelativePath(uri)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITY[d.severity]}${tag ? ` ${tag}` : ""}: ${d.message}`;
}

/** One diagnostic: its description and the source lines it points at (from the open buffer when there is one). */
export function diagnosticItem(uri: vscode.Uri, d: vscode.Diagnostic): ContextItem {
  const range = { start: d.range.start.line + 1, end: d.range.end.line + 1 };
  const doc = vscode.workspace.textDocuments.find((x) => x.uri.toString() === uri.toString());
  const lines = doc ? doc.getText(new vscode.Range(range.start - 1, 0, Math.min(range.end, range.start + 9), 0)) : "";
  const name = uri.path.split("/").pop() ?? uri.fsPath;
  return {
    kind: "diagnostic",
    label: `${name}:${range.start} ${SEVERITY[d.severity]}`,
    uri: fileUri(uri.fsPath, range),
    path: uri.fsPath,
    range,
    content: describe(uri, d) + (lines ? `\n\n${lines}` : ""),
  };
}

/**
 * The Problems list (errors and warnings) as one item, or undefined when there are none: errors first, at most
 * MAX_PROBLEMS_PER_FILE per file and MAX_PROBLEMS in all.
 */
export function problemsItem(): ContextItem | undefined {
  const all = workspaceProblems();
  if (!all.length) return undefined;
  const errors = all.filter((x) => x.d.severity === vscode.DiagnosticSeverity.Error).length;
  const byFile = new Map<string, { uri: vscode.Uri; d: vscode.Diagnostic }[]>();
  for (const x of all) byFile.set(x.uri.fsPath, [...(byFile.get(x.uri.fsPath) ?? []), x]);
  const lines: string[] = [];
  for (const [, of] of byFile) {
    lines.push(...of.slice(0, MAX_PROBLEMS_PER_FILE).map((x) => describe(x.uri, x.d)));
    if (of.length > MAX_PROBLEMS_PER_FILE)
      lines.push(`… and ${of.length - MAX_PROBLEMS_PER_FILE} more in ${vscode.workspace.asRelativePath(of[0]!.uri)}`);
  }
  const shown = lines.slice(0, MAX_PROBLEMS);
  if (lines.length > MAX_PROBLEMS) shown.push(`… and ${lines.length - MAX_PROBLEMS} more lines`);
  return {
    kind: "problems",
    label: `Problems (${errors} error${errors === 1 ? "" : "s"}, ${all.length - errors} warning${all.length - errors === 1 ? "" : "s"})`,
    uri: PROBLEMS_URI,
    content: shown.join("\n"),
  };
}

/** A file or folder URI as a context item (no content: files are read when the prompt is sent). */
export async function uriItem(uri: vscode.Uri): Promise<ContextItem | undefined> {
  if (uri.scheme !== "file") return undefined;
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat) return undefined;
  return stat.type & vscode.FileType.Directory ? folderRef(uri.fsPath) : fileRef(uri.fsPath);
}
