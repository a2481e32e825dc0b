/**
 * The thread panel's "N files changed" rows: what the host sends (`turnChanges`), worked out from the ledger,
 * and sent again whenever the thread's ledger changes. A worktree thread's applies into the workspace get rows
 * too, under the last turn before them.
 */
import type * as vscode from "vscode";
import { lineCounts } from "../../core/ledger/hunks";
import { isReviewable, restoredTurns } from "../../core/ledger/restored";
import { reviewOpAsync, type ReviewFile } from "../../core/ledger/review";
import { relPath } from "../../core/ledger/summary";
import type { HostMessage, TurnChangesView } from "../../webview/thread/protocol";
import type { LedgerHost } from "./ledger-host";

const NAMES = 3;

export async function turnChangesOf(host: LedgerHost, threadId: string, cwd: string): Promise<TurnChangesView[]> {
  const view = await host.ledger.readAsync(threadId);
  const restored = restoredTurns(view);
  let lastTurn = 1;
  const rows = view.ops
    .map((o) => {
      if (o.type === "turn" && o.turn !== undefined) lastTurn = o.turn;
      return { o, under: o.type === "turn" ? o.turn : lastTurn };
    })
    .filter(({ o, under }) => isReviewable(o) && under !== undefined && o.files.length);
  // one operation at a time (its files a few at once): a long thread's versions are not all read at once
  const reviewed: ReviewFile[][] = [];
  for (const { o } of rows) reviewed.push(await reviewOpAsync(host.ledger, view, o));
  return rows.map(({ o, under }, i) => {
    const files = reviewed[i]!;
    const counts = lineCounts(files.flatMap((f) => f.hunks));
    const restoredBy = restored.get(o.op);
    return {
      turn: under!,
      op: o.op,
      ...(o.type === "apply" ? { apply: true } : {}),
      files: o.files.length,
      ...counts,
      // a restored turn's changes are gone from the workspace: nothing of it is left to review
      pending: restoredBy
        ? 0
        : files.reduce(
            (n, f) =>
              n +
              (f.hunks.length ? f.hunks.filter((h) => h.status === "pending").length : f.status === "pending" ? 1 : 0),
            0,
          ),
      names: o.files.slice(0, NAMES).map((f) => relPath(cwd, f.path)),
      ...(restoredBy ? { restoredBy } : {}),
    };
  });
}

/**
 * Posts the rows for the panel's thread now and after every change to its ledger. Read off the host's thread; when
 * answers cross (two changes in a row), only the newest is posted, and none once disposed.
 */
export function followTurnChanges(
  host: LedgerHost,
  post: (m: HostMessage) => void,
  thread: () => string | undefined,
  cwdOf: (threadId: string) => Promise<string | undefined>,
): vscode.Disposable {
  let asked = 0;
  let disposed = false;
  const send = async () => {
    const mine = ++asked;
    const threadId = thread();
    const cwd = threadId && (await cwdOf(threadId));
    if (!threadId || cwd === undefined) return;
    const turns = await turnChangesOf(host, threadId, cwd);
    if (mine === asked && !disposed) post({ type: "turnChanges", turns });
  };
  const sendNow = (): void => {
    send().catch((err: unknown) => host.logger.warn("listing a thread's changed files failed", err));
  };
  sendNow();
  const sub = host.onDidChange(({ threadId }) => {
    if (threadId === thread()) sendNow();
  });
  return {
    dispose: () => {
      disposed = true;
      sub.dispose();
    },
  };
}
