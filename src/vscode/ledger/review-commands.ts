/**
 * "Review changes" (one turn, or a whole thread) in VS Code's multi-file diff editor, "Restore workspace to
 * before this turn" with a preview and a clear refusal to overwrite later edits unless confirmed (and an Undo
 * right after).
 */
import * as vscode from "vscode";
import type { Engine, EngineReplies } from "../../core/engine/requests";
import { AcpThreadsError } from "../../core/errors";
import { blobId } from "../../core/ledger/blob-store";
import type { FileState } from "../../core/ledger/content";
import type { OpRecord } from "../../core/ledger/records";
import { netChanges, type OpView } from "../../core/ledger/ledger-view";
import { isReviewable } from "../../core/ledger/restored";
import { filesChangedLabel, relPath } from "../../core/ledger/summary";
import { currentText, type LedgerHost } from "./ledger-host";

/** A restore's plan as the engine's `ledger.restore` returns it (core/ledger/restore.ts). */
type RestorePlan = NonNullable<EngineReplies["ledger.restore"]["plan"]>;
type RestoreItem = RestorePlan["items"][number];

export interface ThreadInfo {
  cwd: string;
  title: string;
}

export interface ReviewDeps {
  host: LedgerHost;
  /**
   * The window's engine: a restore is planned, checked (the thread's folders) and applied there (`ledger.restore`),
   * through this window's live ledger and its editor (hub.ts).
   */
  engine: Engine;
  info(threadId: string): Promise<ThreadInfo>;
  /** Puts the thread under inline review (CodeLens Keep / Undo in its files). */
  watch(threadId: string): void;
}

async function isNow(path: string, state: FileState | null): Promise<boolean> {
  const text = await currentText(path);
  if (text === null || !state) return text === null && !state;
  return !!state.id && blobId(Buffer.from(text)) === state.id;
}

async function pickTurn(deps: ReviewDeps, threadId: string, what: string): Promise<OpView | undefined> {
  const turns = (await deps.host.ledger.readAsync(threadId)).ops.filter((o) => o.type === "turn" && o.files.length);
  if (!turns.length) {
    void vscode.window.showInformationMessage("This thread has no recorded file changes.");
    return undefined;
  }
  if (turns.length === 1) return turns[0];
  const pick = await vscode.window.showQuickPick(
    turns.reverse().map((o) => ({
      label: `Turn ${o.turn}`,
      description: `${o.summary?.agent?.name ?? ""} · ${filesChangedLabel(o.files.length)}`,
      op: o,
    })),
    { title: what, placeHolder: "Which turn?" },
  );
  return pick?.op;
}

/** A turn by number, or a turn / apply operation by id (the panel's rows), read off the host's thread. */
async function turnOf(deps: ReviewDeps, threadId: string, turn: number | { op: string }): Promise<OpView> {
  const ops = (await deps.host.ledger.readAsync(threadId)).ops;
  const op =
    typeof turn === "number"
      ? ops.find((o) => o.type === "turn" && o.turn === turn)
      : ops.find((o) => o.op === turn.op && isReviewable(o));
  if (!op)
    throw new AcpThreadsError(
      "not_found",
      typeof turn === "number"
        ? `turn ${turn} of this thread has no recorded file changes`
        : `this thread has no recorded operation ${turn.op}`,
    );
  return op;
}

/** How a turn or an apply is named in titles: "turn 2", "the apply". */
const opName = (op: OpView) => (op.type === "apply" ? "the apply" : `turn ${op.turn}`);

/** One turn's (or apply's) changes: before ↔ after it (the live file while it still is what the op left). */
export async function reviewTurn(deps: ReviewDeps, threadId: string, turn?: number | { op: string }): Promise<void> {
  const op = turn === undefined ? await pickTurn(deps, threadId, "Review changes") : await turnOf(deps, threadId, turn);
  if (!op) return;
  deps.watch(threadId);
  const { cwd } = await deps.info(threadId);
  const { host } = deps;
  const resources = await Promise.all(
    op.files.map(async (f) => {
      const uri = vscode.Uri.file(f.path);
      const before = host.versionUri(f.path, f.before, `before ${opName(op)}`);
      const after =
        (await isNow(f.path, f.after)) && f.after ? uri : host.versionUri(f.path, f.after, `after ${opName(op)}`);
      return [uri, before, after];
    }),
  );
  const name = op.type === "apply" ? "Applied to the workspace" : `Turn ${op.turn}`;
  const title = `${name}${op.summary?.agent ? ` · ${op.summary.agent.name}` : ""}: ${filesChangedLabel(op.files.length)}`;
  await showDiffs(title, resources, relPath(cwd, op.files[0].path));
}

/** "Keep all" of a turn: every change still to review is kept (review records, like each Keep); returns how many. */
export async function keepTurn(deps: ReviewDeps, threadId: string, turn?: number | { op: string }): Promise<number> {
  const op =
    turn === undefined ? await pickTurn(deps, threadId, "Keep all changes") : await turnOf(deps, threadId, turn);
  if (!op) return 0;
  const { kept: n } = await deps.engine.call({ op: "review.keepAll", threadId, target: op.op });
  deps.host.changed(threadId);
  void vscode.window.showInformationMessage(
    n ? `Kept ${n} change${n === 1 ? "" : "s"} of ${opName(op)}.` : `Nothing of ${opName(op)} is left to review.`,
  );
  return n;
}

/**
 * Opens one diff (`vscode.diff`) or several (`vscode.changes`) in the active editor group: from the thread panel,
 * that is the thread's own group, as a tab beside the panel's (#37: a new group beside it left a narrow window
 * with two narrow columns); from an editor, where it is.
 */
async function showDiffs(title: string, resources: vscode.Uri[][], firstName: string): Promise<void> {
  if (resources.length === 1) {
    const [, before, after] = resources[0];
    const viewColumn = vscode.ViewColumn.Active;
    await vscode.commands.executeCommand("vscode.diff", before, after, `${firstName} (${title})`, { viewColumn });
    return;
  }
  await vscode.commands.executeCommand("vscode.changes", title, resources);
}

/** Everything the thread changed: each file before the thread's first change ↔ as it is now. */
export async function reviewThread(deps: ReviewDeps, threadId: string): Promise<void> {
  const view = await deps.host.ledger.readAsync(threadId);
  const files = netChanges(view.ops);
  if (!files.length) return void vscode.window.showInformationMessage("This thread has no recorded file changes.");
  deps.watch(threadId);
  const resources = files.map((f) => {
    const uri = vscode.Uri.file(f.path);
    return [
      uri,
      deps.host.versionUri(f.path, f.before, "before the thread"),
      f.after ? uri : deps.host.versionUri(f.path, null, "deleted"),
    ];
  });
  const { cwd, title } = await deps.info(threadId);
  await showDiffs(`“${title}”: ${filesChangedLabel(files.length)}`, resources, relPath(cwd, files[0].path));
}

const ACTION = {
  revert: "$(discard) revert",
  delete: "$(trash) delete",
  recreate: "$(new-file) recreate",
  unchanged: "$(check) unchanged",
};

export interface RestoreOptions {
  /** Skip the preview and ask nothing: later edits are then only overwritten with `force` (tests, scripts). */
  yes?: boolean;
  /** Overwrite files edited after the thread's last change to them without asking. */
  force?: boolean;
}

/** "Restore workspace to before this turn" (or to before an operation, e.g. to undo a restore). */
export async function restoreTurn(
  deps: ReviewDeps,
  threadId: string,
  target?: number | { op: string },
  opts: RestoreOptions = {},
): Promise<string | undefined> {
  const turn = target === undefined ? (await pickTurn(deps, threadId, "Restore workspace"))?.turn : target;
  if (turn === undefined) return undefined;
  const { host, engine } = deps;
  const { cwd } = await deps.info(threadId);
  const req = {
    op: "ledger.restore",
    threadId,
    ...(typeof turn === "number" ? { turn } : { target: turn.op }),
  } as const;
  // the engine's preview, against unsaved buffers (an unsaved one counts as edited after the turn); a file outside
  // the thread's folders refuses the restore before anything is shown or written
  const { plan, outside, planKey } = await engine.call({ ...req, dryRun: true });
  if (outside) throw new AcpThreadsError(outside.code, outside.message, outside.details);
  if (!plan) return undefined;
  const toOp =
    typeof turn === "number" ? undefined : (await host.ledger.readAsync(threadId)).ops.find((o) => o.op === turn.op);
  const what = restoreWhat(typeof turn === "number" ? { type: "turn", turn } : toOp);
  const todo = plan.items.filter((i) => i.action !== "unchanged");
  if (!todo.length)
    return void vscode.window.showInformationMessage(`Nothing to restore: the files are as they were ${what}.`);
  const conflicts = todo.filter((i) => i.conflict && !i.unavailable);
  if (!opts.yes && !(await preview(plan, cwd, what))) return undefined;
  let force = opts.force ?? false;
  if (conflicts.length && !force) {
    const names = conflicts.map((c) => relPath(cwd, c.path)).join(", ");
    if (opts.yes)
      throw new AcpThreadsError(
        "usage",
        `not restored: ${names} changed after the thread last wrote them (force to overwrite)`,
      );
    const answer = await vscode.window.showWarningMessage(
      `${conflicts.length} file(s) changed after the thread last wrote them: ${names}. Restoring overwrites those edits.`,
      { modal: true },
      "Overwrite my edits",
    );
    if (answer !== "Overwrite my edits") return undefined;
    force = true;
  }
  // planned and checked again as it is applied (the plan previewed, or nothing), written through the editor
  const done = await engine.call({ ...req, force, ...(planKey ? { expect: planKey } : {}) });
  if (done.refused?.details?.stale && !opts.yes) {
    void vscode.window.showInformationMessage("The files changed while the restore's preview was open: look again.");
    return restoreTurn(deps, threadId, turn, opts);
  }
  if (done.refused) throw new AcpThreadsError(done.refused.code, done.refused.message, done.refused.details);
  if (!done.result) throw new Error(`the restore of thread ${threadId} was not applied (held by ${done.heldBy})`);
  host.changed(threadId);
  const { op, files, notes } = done.result;
  void vscode.window
    .showInformationMessage(
      `Restored ${files} file(s) to ${what}.${notes.length ? ` ${notes.join("; ")}` : ""}`,
      "Undo restore",
    )
    .then((pick) => pick && restoreTurn(deps, threadId, { op }, { yes: true }));
  return op;
}

/**
 * What a restore puts the files back to, by the operation it targets: a turn's ("before turn 3": Rewind targets
 * the first turn operation of its prompt, #37), an apply's, a restore's or an undo's (undoing them).
 */
export function restoreWhat(op: Pick<OpRecord, "type" | "turn"> | undefined): string {
  if (op?.type === "turn") return op.turn !== undefined ? `before turn ${op.turn}` : "before that turn";
  if (op?.type === "apply") return "before the apply";
  return op?.type === "undo" ? "before the undo" : "before the restore";
}

async function preview(plan: RestorePlan, cwd: string, what: string): Promise<boolean> {
  const items = restorePreviewItems(plan, cwd, what);
  const pick = await vscode.window.showQuickPick(items, {
    title: `Restore workspace to ${what}`,
    placeHolder: "Preview: what will change",
  });
  return !!pick?.go;
}

export interface PreviewItem extends vscode.QuickPickItem {
  /** The item that confirms the restore. */
  go?: boolean;
}

const turnList = (turns: number[]) => (turns.length ? `turn${turns.length === 1 ? "" : "s"} ${turns.join(", ")}` : "");

/**
 * The restore preview: Restore first, then the files of the turn itself, then — under their own heading — the
 * files only later turns changed, which the restore takes back too (each names its turns).
 */
export function restorePreviewItems(plan: RestorePlan, cwd: string, what: string): PreviewItem[] {
  const turn = plan.target.turn;
  const line = (i: RestoreItem): PreviewItem => {
    const others = i.turns.filter((t) => t !== turn);
    const from =
      turn === undefined
        ? turnList(i.turns)
        : i.turns.includes(turn)
          ? others.length
            ? `also ${turnList(others)}`
            : ""
          : turnList(others);
    const state = i.unavailable
      ? `cannot restore: ${i.unavailable}`
      : i.conflict
        ? "$(warning) edited since — would be overwritten"
        : "";
    return {
      label: `${ACTION[i.action]}  ${relPath(cwd, i.path)}`,
      description: [from, state].filter(Boolean).join(" · "),
    };
  };
  // files only later turns changed (a file no turn changed, e.g. by an earlier restore, counts as the target's)
  const fromLater = (i: RestoreItem) => turn !== undefined && i.turns.length > 0 && !i.turns.includes(turn);
  const own = plan.items.filter((i) => !fromLater(i));
  const later = plan.items.filter(fromLater);
  const laterTurns = [...new Set(later.flatMap((i) => i.turns))].sort((a, b) => a - b);
  const go: PreviewItem = {
    label: "$(history) Restore",
    description: `put ${plan.items.length} file(s) back to ${what}${later.length ? ` (${later.length} of them from later ${turnList(laterTurns)})` : ""}`,
    alwaysShow: true,
    go: true,
  };
  const sep = (label: string): PreviewItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
  return [
    go,
    ...(later.length && own.length ? [sep(`Turn ${turn}`)] : []),
    ...own.map(line),
    ...(later.length ? [sep(`Later ${turnList(laterTurns)} — also restored`), ...later.map(line)] : []),
  ];
}
