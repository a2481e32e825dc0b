/**
 * "Ask agent about selection" (editor context menu, Ctrl+Alt+A) and "Add file to thread" (explorer, editor
 * tab and editor context menus): the selection or files become chips in a thread's prompt box. The target is
 * the focused thread panel (a thread the thread host runs too: its prompts carry context), else a pick of the live
 * threads (or a new one), else a new thread.
 */
import * as vscode from "vscode";
import type { ContextItem } from "../../core/model/context";
import type { LiveSession } from "../live-session";
import type { ComposerHost } from "./composer-host";
import { selectionItem, uriItem } from "./editor-context";

export interface ContextTargetDeps {
  composer: ComposerHost;
  liveThreads(): LiveSession[];
  /** The thread panel that was active last, if it is still open. */
  lastActivePanel(): string | undefined;
  /** Whether the thread host runs this thread, kept open for more prompts, and a panel here follows it. */
  hostedOpen?(threadId: string): boolean;
}

/** Threads whose prompt box takes input now: session-mode live threads, hosted open runs and new-thread drafts. */
async function accepting(deps: ContextTargetDeps, threadId: string): Promise<boolean> {
  if ((await deps.composer.isDraft(threadId)) || deps.hostedOpen?.(threadId)) return true;
  const live = deps.liveThreads().find((s) => s.threadId === threadId);
  return !!live && live.isOpen && live.mode === "session";
}

export async function addToThread(deps: ContextTargetDeps, items: ContextItem[]): Promise<string | undefined> {
  if (!items.length) return undefined;
  const focused = deps.lastActivePanel();
  if (focused && (await accepting(deps, focused))) return deps.composer.insert(focused, items);
  const live: LiveSession[] = [];
  for (const s of deps.liveThreads()) if (await accepting(deps, s.threadId)) live.push(s);
  if (!live.length) return deps.composer.openDraft(items);
  const NEW = "$(add) New thread";
  const picked = await vscode.window.showQuickPick(
    [
      ...live.map((s) => ({
        label: s.title,
        description: `${s.agent.displayName} · ${s.status}`,
        threadId: s.threadId,
      })),
      { label: NEW, description: "start a new thread with this context", threadId: "" },
    ],
    { title: `Add ${items.map((i) => i.label).join(", ")} to which thread?`, placeHolder: "Live threads" },
  );
  if (!picked) return undefined;
  return picked.threadId ? deps.composer.insert(picked.threadId, items) : deps.composer.openDraft(items);
}

/** The active editor's selection (or its current line when nothing is selected). */
export async function askAboutSelection(deps: ContextTargetDeps): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file") {
    void vscode.window.showInformationMessage("Select some code in an editor first.");
    return undefined;
  }
  const sel = editor.selection.isEmpty ? editor.document.lineAt(editor.selection.active.line).range : editor.selection;
  return addToThread(deps, [selectionItem(editor.document, sel)]);
}

/** Explorer (one or several selected), editor tab or editor: the files and folders as chips. */
export async function addFilesToThread(
  deps: ContextTargetDeps,
  clicked?: vscode.Uri,
  selected?: vscode.Uri[],
): Promise<string | undefined> {
  const uris = selected?.length ? selected : clicked ? [clicked] : [];
  if (!uris.length && vscode.window.activeTextEditor) uris.push(vscode.window.activeTextEditor.document.uri);
  const items = (await Promise.all(uris.filter((u) => u instanceof vscode.Uri).map(uriItem))).filter(
    (i): i is ContextItem => !!i,
  );
  if (!items.length) {
    void vscode.window.showInformationMessage("Pick a file or folder of the workspace to add.");
    return undefined;
  }
  return addToThread(deps, items);
}
