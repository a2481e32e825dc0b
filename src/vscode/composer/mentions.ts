/**
 * `@` suggestions for the prompt box, in two phases so typing never waits on a slow source: first what is in
 * memory (the selection, problems, open editors, past threads from the threads index, and the workspace files
 * once listed), then the language servers' workspace symbols and recall hits. Each phase is posted as it lands.
 */
import * as vscode from "vscode";
import type { ContextItem } from "../../core/model/context";
import { matchPath } from "../../core/prompt/fuzzy";
import { fileRef, folderRef, symbolRef, threadRef } from "../../core/prompt/refs";
import type { CompletionItem } from "../../webview/thread/protocol";
import { diagnosticItem, problemsItem, workspaceProblems, type EditorContext } from "./editor-context";
import type { WorkspaceFileIndex } from "./file-index";
import { background } from "../../core/util/unexpected";

export interface ThreadChoice {
  threadId: string;
  title: string;
  agent: string;
  updatedAt: string;
}

export interface RecallChoice {
  title: string;
  detail: string;
  uri: string;
  content: string;
}

export interface MentionSources {
  files: WorkspaceFileIndex;
  editor: EditorContext;
  threads(): Promise<ThreadChoice[]>;
  recall?(query: string, signal?: AbortSignal): Promise<RecallChoice[]>;
  /** The thread the prompt box belongs to (not offered as its own mention). */
  self?: string;
}

const LIMIT = { editors: 8, files: 30, symbols: 15, threads: 8, diagnostics: 5 };
/** Language servers can be slow on a cold workspace: the list is complete without them after this long, and
 * their symbols are added when they come (up to SYMBOL_LATE_MS). */
const SYMBOL_TIMEOUT_MS = 2500;
const SYMBOL_LATE_MS = 15_000;

const within = <T>(p: Promise<T>, ms: number, fallback: T) =>
  Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);

const base = (p: string) => p.split("/").pop() ?? p;
const dirOf = (rel: string) => (rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "");

function item(group: CompletionItem["group"], icon: string, ctx: ContextItem, label = ctx.label, detail?: string) {
  const { content, data: _d, thumbData: _t, ...ref } = ctx;
  const out: CompletionItem = { group, icon, label, ref, ...(detail ? { detail } : {}) };
  if (content !== undefined) out.content = content;
  return out;
}

/** Fuzzy filter on a label (and an extra text); keeps the label's matched positions. */
function filtered<T>(query: string, list: T[], text: (t: T) => string, limit: number) {
  if (!query) return list.slice(0, limit).map((t) => ({ t, match: undefined as number[] | undefined }));
  return list
    .map((t) => ({ t, m: matchPath(query, text(t)) }))
    .filter((x) => x.m)
    .sort((a, b) => b.m!.score - a.m!.score)
    .slice(0, limit)
    .map((x) => ({ t: x.t, match: x.m!.positions }));
}

function fastItems(query: string, src: MentionSources): CompletionItem[] {
  const out: CompletionItem[] = [];
  const sel = src.editor.selection();
  if (sel && (!query || matchPath(query, `selection ${sel.label}`)))
    out.push(item("selection", "selection", sel, sel.label, "current selection"));
  const problems = problemsItem();
  if (problems && (!query || matchPath(query, "problems"))) out.push(item("problems", "warning", problems));
  if (query) {
    const diags = workspaceProblems();
    for (const { t, match } of filtered(query, diags, (x) => `${base(x.uri.path)} ${x.d.message}`, LIMIT.diagnostics)) {
      const d = diagnosticItem(t.uri, t.d);
      out.push({ ...item("problems", t.d.severity === 0 ? "error" : "warning", d, d.label, t.d.message), match });
    }
  }
  const editors = src.editor.openEditors().map((uri) => ({ uri, rel: vscode.workspace.asRelativePath(uri) }));
  for (const { t, match } of filtered(query, editors, (e) => e.rel, LIMIT.editors)) {
    const name = base(t.rel);
    const shift = t.rel.length - name.length;
    out.push({
      ...item("editors", "go-to-file", fileRef(t.uri.fsPath), name, dirOf(t.rel)),
      match: match?.filter((i) => i >= shift).map((i) => i - shift),
    });
  }
  if (src.files.ready) out.push(...fileItems(query, src.files));
  return out;
}

function threadItems(query: string, src: MentionSources, threads: ThreadChoice[]): CompletionItem[] {
  const others = threads.filter((t) => t.threadId !== src.self);
  return filtered(query, others, (x) => x.title, LIMIT.threads).map(({ t, match }) => ({
    ...item(
      "threads",
      "comment-discussion",
      threadRef(t.threadId, t.title),
      t.title,
      `${t.agent} · ${t.updatedAt.slice(0, 10)}`,
    ),
    match,
  }));
}

function fileItems(query: string, files: WorkspaceFileIndex): CompletionItem[] {
  const hits = files.search(query, query ? LIMIT.files : 12);
  return hits.map((h) => {
    const name = base(h.rel);
    const shift = h.rel.length - name.length;
    const ctx = h.kind === "folder" ? folderRef(h.uri.fsPath) : fileRef(h.uri.fsPath);
    return {
      ...item(
        "files",
        h.kind === "folder" ? "folder" : "file",
        ctx,
        h.kind === "folder" ? `${name}/` : name,
        dirOf(h.rel),
      ),
      match: h.match.positions.filter((i) => i >= shift).map((i) => i - shift),
    };
  });
}

const SYMBOL_ICON: Partial<Record<vscode.SymbolKind, string>> = {
  [vscode.SymbolKind.Class]: "symbol-class",
  [vscode.SymbolKind.Interface]: "symbol-interface",
  [vscode.SymbolKind.Function]: "symbol-function",
  [vscode.SymbolKind.Method]: "symbol-method",
  [vscode.SymbolKind.Variable]: "symbol-variable",
  [vscode.SymbolKind.Constant]: "symbol-constant",
  [vscode.SymbolKind.Enum]: "symbol-enum",
  [vscode.SymbolKind.Property]: "symbol-property",
  [vscode.SymbolKind.Field]: "symbol-field",
  [vscode.SymbolKind.Module]: "symbol-namespace",
};

async function symbolItems(query: string): Promise<CompletionItem[]> {
  if (query.length < 2) return [];
  const found = await Promise.resolve(
    vscode.commands.executeCommand<vscode.SymbolInformation[]>("vscode.executeWorkspaceSymbolProvider", query),
  ).catch(() => [] as vscode.SymbolInformation[]);
  return (found ?? [])
    .filter((s) => s.location?.uri.scheme === "file")
    .slice(0, LIMIT.symbols)
    .map((s) => {
      const r = s.location.range;
      const ref = symbolRef(s.location.uri.fsPath, s.name, { start: r.start.line + 1, end: r.end.line + 1 });
      const where = `${vscode.workspace.asRelativePath(s.location.uri)}:${r.start.line + 1}`;
      return {
        ...item(
          "symbols",
          SYMBOL_ICON[s.kind] ?? "symbol-misc",
          ref,
          s.name,
          `${s.containerName ? `${s.containerName} · ` : ""}${where}`,
        ),
        match: matchPath(query, s.name)?.positions,
      };
    });
}

async function recallItems(query: string, src: MentionSources): Promise<CompletionItem[]> {
  if (!src.recall || query.length < 3) return [];
  const hits = await src.recall(query).catch(() => []);
  return hits.map((h) => ({
    group: "threads" as const,
    icon: "history",
    label: h.title,
    detail: h.detail,
    ref: { kind: "thread" as const, label: h.title, uri: h.uri },
    content: h.content,
  }));
}

/**
 * Computes the suggestions for `query`, posting each phase with `emit(items, done)`: first what needs no I/O
 * (selection, problems, open editors, listed files), then past threads and files still being listed, then
 * symbols and recall.
 */
export async function suggestMentions(
  query: string,
  src: MentionSources,
  emit: (items: CompletionItem[], done: boolean) => void,
): Promise<void> {
  const fast = fastItems(query, src);
  emit(fast, false);
  const [threads] = await Promise.all([src.threads().catch(() => []), src.files.ensure().catch(() => undefined)]);
  const listedLate = fast.some((i) => i.group === "files") || !src.files.ready ? [] : fileItems(query, src.files);
  const second = [...fast, ...listedLate, ...threadItems(query, src, threads)];
  emit(second, false);
  const symbolsLater = symbolItems(query);
  const [symbols, recalled] = await Promise.all([
    within(symbolsLater, SYMBOL_TIMEOUT_MS, undefined),
    recallItems(query, src),
  ]);
  const known = new Set(second.filter((i) => i.group === "threads").map((i) => i.ref?.uri));
  const third = [...second, ...recalled.filter((r) => !known.has(r.ref?.uri))];
  emit([...third, ...(symbols ?? [])], true);
  if (symbols) return;
  // a slow language server: its symbols join the (already complete) list when they come; nobody waits for them
  background(
    within(symbolsLater, SYMBOL_LATE_MS, []).then((late) => late.length && emit([...third, ...late], true)),
    "listing workspace symbols",
  );
}
