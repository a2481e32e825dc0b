/**
 * A conflicting agent write, shown to the user to resolve: VS Code's merge editor (yours | agent, the result below)
 * on a scratch result file prefilled with the three-way merge and its conflict markers. Where the merge editor
 * cannot be opened, that file opens in a plain editor (VS Code's inline "Accept Current | Accept Incoming" actions
 * work on the markers). A notification offers "Accept agent's version" / "Keep mine" / "Cancel the write" without
 * editing anything. Resolves with the text the user settled on, or undefined when they cancelled or closed it
 * unresolved.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as vscode from "vscode";
import { hasConflictMarkers } from "../core/text/merge3";
import { background } from "../core/util/unexpected";

export interface ConflictToResolve {
  path: string;
  /** What the agent last read, the user's buffer, the agent's proposal. */
  base: string;
  yours: string;
  agent: string;
  /** The merge with conflict markers, and the two ways of settling every conflict at once. */
  marked: string;
  agentWins: string;
  userWins: string;
  /** Every conflict left at what the agent read: how the merge editor starts; saved as is, nothing was resolved. */
  unresolved: string;
  conflicts: number;
  firstConflictLine: number;
  /** What the merge editor and the notification say (default: an agent's write against unsaved edits). */
  labels?: Partial<MergeLabels>;
}

export interface MergeLabels {
  yours: string;
  agent: string;
  /** The notification, given the file (workspace-relative) and where the conflicts are. */
  message: (rel: string, where: string) => string;
  accept: string;
  keep: string;
  cancel: string;
}

const DEFAULT_LABELS: MergeLabels = {
  yours: "Yours (unsaved)",
  agent: "Agent",
  message: (rel, where) =>
    `An agent's write to ${rel} conflicts with your unsaved edits at ${where}. Resolve it in the merge editor and choose Complete Merge, or settle every conflict at once. The agent's other changes are merged either way.`,
  accept: "Accept agent's version",
  keep: "Keep mine",
  cancel: "Cancel the write",
};

const SCHEME = "acp-threads-merge";
const contents = new Map<string, string>();
let provider: vscode.Disposable | undefined;
let counter = 0;

function readOnlyDoc(dir: string, name: string, text: string): vscode.Uri {
  provider ??= vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    provideTextDocumentContent: (uri) => contents.get(uri.toString()) ?? "",
  });
  const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${dir}/${name}` });
  contents.set(uri.toString(), text);
  return uri;
}

export async function resolveConflict(
  c: ConflictToResolve,
  opts: { timeoutMs?: number } = {},
): Promise<string | undefined> {
  const labels = { ...DEFAULT_LABELS, ...c.labels };
  const name = basename(c.path);
  const dir = await mkdtemp(join(tmpdir(), "acp-threads-merge-"));
  const resultPath = join(dir, name);
  await writeFile(resultPath, c.marked, { mode: 0o600 });
  const result = vscode.Uri.file(resultPath);
  const key = `${++counter}`;
  const inputs = [
    readOnlyDoc(key, `base/${name}`, c.base),
    readOnlyDoc(key, `yours/${name}`, c.yours),
    readOnlyDoc(key, `agent/${name}`, c.agent),
  ] as const;
  const rel = vscode.workspace.asRelativePath(c.path);
  try {
    await vscode.commands.executeCommand("_open.mergeEditor", {
      base: inputs[0],
      input1: { uri: inputs[1], title: labels.yours, description: rel },
      input2: { uri: inputs[2], title: labels.agent, description: rel },
      output: result,
    });
  } catch {
    await vscode.window.showTextDocument(result, { preview: false });
  }
  const isResult = (uri: vscode.Uri | undefined) => uri?.toString() === result.toString();
  // a merge editor tab's input carries its result uri (TabInputTextMerge; not in the 1.95 typings)
  const showsResult = (tab: vscode.Tab) =>
    (tab.input instanceof vscode.TabInputText && isResult(tab.input.uri)) ||
    isResult((tab.input as { result?: vscode.Uri } | undefined)?.result);
  const resultTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter(showsResult);

  return new Promise<string | undefined>((resolve) => {
    let settled = false;
    const subscriptions: vscode.Disposable[] = [];
    const finish = async (text: string | undefined) => {
      if (settled) return;
      settled = true;
      for (const s of subscriptions) s.dispose();
      clearTimeout(timer);
      // close what is still open on the scratch file (saved first, so closing never asks)
      const doc = vscode.workspace.textDocuments.find((d) => isResult(d.uri));
      if (doc?.isDirty) await doc.save().then(undefined, () => false);
      await Promise.resolve(vscode.window.tabGroups.close(resultTabs())).catch(() => false);
      for (const uri of inputs) contents.delete(uri.toString());
      await rm(dir, { recursive: true, force: true });
      resolve(text);
    };
    const timer = setTimeout(
      () => background(finish(undefined), "closing an abandoned merge"),
      opts.timeoutMs ?? 30 * 60_000,
    );
    subscriptions.push(
      // "Complete Merge" (or a plain save) with every conflict resolved
      vscode.workspace.onDidSaveTextDocument((d) => {
        const text = d.getText();
        if (isResult(d.uri) && !hasConflictMarkers(text) && text !== c.unresolved)
          background(finish(text), "finishing the merge");
      }),
      // closed without resolving: the write is cancelled (looked at again a moment later: editors swap tabs)
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        if (!e.closed.some(showsResult)) return;
        setTimeout(() => {
          if (resultTabs().length === 0) background(finish(undefined), "cancelling the merge");
        }, 1000);
      }),
    );
    const where =
      c.conflicts === 1
        ? `line ${c.firstConflictLine}`
        : `${c.conflicts} places (first near line ${c.firstConflictLine})`;
    void vscode.window
      .showWarningMessage(labels.message(rel, where), labels.accept, labels.keep, labels.cancel)
      .then((choice) => {
        if (choice === labels.accept) background(finish(c.agentWins), "finishing the merge");
        else if (choice === labels.keep) background(finish(c.userWins), "finishing the merge");
        else if (choice === labels.cancel) background(finish(undefined), "cancelling the merge");
      });
  });
}
