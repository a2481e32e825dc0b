/**
 * Bringing a worktree home (#25), from the Sessions tree, the command palette or a script: "Apply to workspace"
 * (the changes against the base as a review in VS Code's multi-file diff editor, then applied through the core
 * apply as a ledger operation the existing Restore takes back, each applied hunk then pending review in the
 * workspace with Keep / Undo like a turn's; files the user changed too are listed, left as
 * they are and offered to the merge editor: merge-conflicts.ts), "Commit to a branch" (never the checked-out
 * one) and "Discard" (confirmed, then removed).
 */
import * as vscode from "vscode";
import { relative } from "node:path";
import { applyWorktree, planApply, type ApplyPlan } from "../../core/worktree/apply";
import { background } from "../../core/util/unexpected";
import type { Hub } from "../hub";
import { mergeWorktreeConflicts } from "./merge-conflicts";
import { describeWorktreeState } from "./states";
import { worktreeTarget, type WorktreeTarget } from "./target";
import { applyWriter, unsavedOf } from "../ledger/ledger-host";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const mergeLabel = (n: number) => `Merge ${plural(n, "conflict")}…`;

export interface ApplyOutcome {
  op?: string;
  applied: string[];
  /** Conflicting files left as they are. */
  skipped: string[];
}

/** The plan's files as a multi-file diff: the workspace's copy now ↔ the worktree's. */
async function showReview(hub: Hub, t: WorktreeTarget, plan: ApplyPlan): Promise<void> {
  // a file refused for a symbolic link is not shown either (the diff would read through the link)
  const items = plan.items.filter((i) => i.action !== "unchanged" && !i.refused);
  const resources = items.map((i) => {
    const main = vscode.Uri.file(i.path);
    const wt = vscode.Uri.file(`${t.ref.path}/${i.rel}`);
    return [
      main,
      i.action === "create" ? hub.ledger.host.versionUri(i.path, null, "absent in the workspace") : main,
      i.action === "delete" ? hub.ledger.host.versionUri(i.path, null, "deleted in the worktree") : wt,
    ];
  });
  await vscode.commands.executeCommand("vscode.changes", `Worktree of “${t.title}” → workspace`, resources);
}

/** "Open diff": the worktree's changes as a review, nothing applied. */
export async function reviewWorktree(hub: Hub, arg: unknown): Promise<void> {
  const t = await worktreeTarget(hub, arg, "Review which worktree?");
  if (!t) return;
  const plan = await planApply(t.ref, { ledger: hub.ledger.ledger, threadId: t.threadId });
  if (!plan.items.some((i) => i.action !== "unchanged"))
    return void vscode.window.showInformationMessage("The worktree has no changes the workspace does not have.");
  await showReview(hub, t, plan);
}

export async function applyToWorkspace(
  hub: Hub,
  arg?: unknown,
  opts: { yes?: boolean } = {},
): Promise<ApplyOutcome | undefined> {
  const t = await worktreeTarget(hub, arg, "Apply which worktree to the workspace?");
  if (!t) return undefined;
  // the link's sessions are never older than the events this window heard (host-link.ts): a turn whose end was
  // heard says idle there; a connection being opened is waited for (its sessions not read yet)
  const link = hub.hosted.linkOf(t.threadId);
  if (link.connected) await link.connection();
  if (hub.live.get(t.threadId)?.busy || hub.hosted.get(t.threadId)?.busy || hostedRun(hub, t.threadId) === "working")
    throw new Error(`“${t.title}” is working; apply its worktree once the turn ends.`);
  const plan = await planApply(t.ref, { ledger: hub.ledger.ledger, threadId: t.threadId });
  const todo = plan.items.filter((i) => i.action !== "unchanged");
  if (!todo.length) {
    void vscode.window.showInformationMessage("Nothing to apply: the workspace already has the worktree's changes.");
    return { applied: [], skipped: [] };
  }
  const unsaved = unsavedOf(todo.map((i) => i.path));
  if (unsaved.length)
    throw new Error(
      `Save or revert your unsaved edits first (the apply writes into ${unsaved.length === 1 ? "that file" : "those files"}; nothing was applied): ${unsaved.map((p) => vscode.workspace.asRelativePath(p)).join(", ")}`,
    );
  await showReview(hub, t, plan);
  const conflicts = todo.filter((i) => i.conflict && !i.refused);
  const refused = todo.filter((i) => i.refused);
  if (!opts.yes) {
    const rel = (p: string) => relative(t.ref.repo, p) || p;
    const linked = refused.length
      ? `\n${plural(refused.length, "file")} not applied (symbolic links never carry an apply out of its trees):\n${refused.map((i) => `  ${i.refused}`).join("\n")}`
      : "";
    const detail =
      (conflicts.length
        ? `${plural(conflicts.length, "file")} changed in the workspace since the worktree's base and in the worktree too; they are left as they are; then "Merge…" opens each in the merge editor:\n${conflicts.map((c) => `  ${rel(c.path)}`).join("\n")}`
        : "The apply is recorded in the thread's changes: Restore takes it back.") + linked;
    const n = todo.length - conflicts.length - refused.length;
    if (!n) {
      const merge = mergeLabel(conflicts.length);
      const answer = await vscode.window.showWarningMessage(
        `Nothing to apply but conflicts: every changed file conflicts.`,
        { modal: true, detail },
        merge,
      );
      if (answer === merge) background(mergeWorktreeConflicts(hub, t.threadId), "merging worktree conflicts");
      return { applied: [], skipped: conflicts.map((c) => c.rel) };
    }
    const go = conflicts.length ? `Apply the other ${plural(n, "file")}` : "Apply";
    const answer = await vscode.window.showInformationMessage(
      `Apply ${plural(n, "file")} of the worktree to the workspace?`,
      { modal: true, detail },
      go,
    );
    if (answer !== go) return undefined;
  }
  // through open documents, so the editors (and the inline review placing the applied hunks) see the new text
  const result = await applyWorktree(hub.ledger.ledger, t.threadId, plan, {
    force: conflicts.length > 0 || refused.length > 0,
    writer: applyWriter,
  });
  hub.ledger.host.changed(t.threadId);
  // every applied hunk is pending review in the workspace, like a turn's: Keep / Undo per hunk
  if (result.op) hub.ledger.watch(t.threadId);
  hub.worktrees.invalidate(t.threadId, t.ref);
  const op = result.op?.op;
  const outcome = { op, applied: result.applied.map((i) => i.rel), skipped: result.skipped.map((i) => i.rel) };
  const merge = result.skipped.length ? mergeLabel(result.skipped.length) : undefined;
  if (op || merge)
    void vscode.window
      .showInformationMessage(
        `Applied ${plural(result.applied.length, "file")} of the worktree${result.skipped.length ? `; ${plural(result.skipped.length, "conflicting file")} left as ${result.skipped.length === 1 ? "it was" : "they were"}` : ""}.`,
        ...(op ? ["Undo"] : []),
        ...(merge ? [merge] : []),
      )
      .then((a) => {
        if (a === "Undo" && op) return hub.ledger.restoreTurn(t.threadId, { op });
        if (a === merge)
          background(
            mergeWorktreeConflicts(hub, t.threadId, { files: outcome.skipped, ...(op ? { from: op } : {}) }),
            "merging worktree conflicts",
          );
      });
  return outcome;
}

export async function commitWorktreeToBranch(
  hub: Hub,
  arg?: unknown,
  opts: { branch?: string; message?: string } = {},
): Promise<{ branch: string; commit: string } | undefined> {
  const t = await worktreeTarget(hub, arg, "Commit which worktree to a branch?");
  if (!t) return undefined;
  const branch =
    opts.branch ??
    (await vscode.window.showInputBox({
      prompt: `New branch for the worktree's changes (in ${t.ref.repo}; your checked-out branch is not touched)`,
      placeHolder: "agent/my-change",
      validateInput: (v) =>
        hub.engine.call({ op: "worktree.branch-name", threadId: t.threadId, name: v }).then(
          () => undefined,
          (err: Error) => err.message,
        ),
    }));
  if (!branch) return undefined;
  const message = opts.message ?? t.title;
  const r = await hub.engine.call({ op: "worktree.commit", threadId: t.threadId, branch, message });
  hub.worktrees.invalidate(t.threadId, t.ref);
  void vscode.window.showInformationMessage(
    `Committed the worktree's changes to the branch ${r.branch} (${r.commit.slice(0, 10)}).`,
  );
  return { branch: r.branch, commit: r.commit };
}

export async function discardWorktreeCommand(hub: Hub, arg?: unknown, opts: { yes?: boolean } = {}): Promise<boolean> {
  const t = await worktreeTarget(hub, arg, "Discard which worktree?");
  if (!t) return false;
  const live = hub.live.get(t.threadId);
  const hosted = hostedRun(hub, t.threadId) !== undefined;
  if (!opts.yes) {
    const state = describeWorktreeState(await hub.worktrees.read(t.threadId, t.ref));
    const answer = await vscode.window.showWarningMessage(
      `Discard the worktree of “${t.title}”?`,
      {
        modal: true,
        detail: `${t.ref.path} (${state}) and its folder are removed; changes not applied or committed are lost.${live?.isOpen || hosted ? " Its session is closed first." : ""} The thread itself stays.`,
      },
      "Discard",
    );
    if (answer !== "Discard") return false;
  }
  if (live?.isOpen) await live.close();
  if (hosted) await stopHostedRun(hub, t.threadId);
  const result = await hub.engine.call({ op: "worktree.discard", threadId: t.threadId });
  if (live) live.worktree = undefined;
  hub.worktrees.forget(t.ref.path);
  hub.tree.refresh();
  for (const w of result.warnings) hub.log.logger.warn(`discarding ${t.ref.path}: ${w}`);
  return true;
}

/** The state of the thread host's run on the thread (a hosted worktree session, a Best of N candidate); none: no run. */
const hostedRun = (hub: Hub, threadId: string) => hub.hosted.linkOf(threadId).session(threadId)?.state;

/** How long a discard waits for the host's run to end once stopped (its agent closed, the thread's file let go). */
const HOSTED_STOP_MS = 15_000;

/** Ends the thread host's run on the thread before its worktree goes: its agent works there, its run holds the file. */
async function stopHostedRun(hub: Hub, threadId: string): Promise<void> {
  let sub: vscode.Disposable | undefined;
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<void>((resolve) => {
    sub = hub.hosted.onPush((m) => {
      if (m.t === "event" && m.event.kind === "ended" && m.event.threadId === threadId) resolve();
    });
    timer = setTimeout(resolve, HOSTED_STOP_MS);
  });
  try {
    // refused: the run ended meanwhile (the host's status was older than the run)
    if (
      await hub.hosted.stop(threadId).then(
        () => true,
        () => false,
      )
    )
      await ended;
  } finally {
    sub?.dispose();
    clearTimeout(timer);
  }
}
