/**
 * The thread panel's "N files changed" rows: what the host sends (`turnChanges`), worked out from the ledger by
 * the window's engine (`review.turnChanges`), and sent again whenever the thread's ledger changes. A worktree thread's applies into the workspace get rows
 * too, under the last turn before them.
 */
import type * as vscode from "vscode";
import type { Engine } from "../../core/engine/requests";
import type { HostMessage, TurnChangesView } from "../../webview/thread/protocol";
import type { LedgerHost } from "./ledger-host";

/** The rows of the thread's changes, worked out by the engine (`review.turnChanges`). */
export function turnChangesOf(engine: Engine, threadId: string, cwd: string): Promise<TurnChangesView[]> {
  return engine.call({ op: "review.turnChanges", threadId, cwd });
}

/**
 * Posts the rows for the panel's thread now and after every change to its ledger. Read off the host's thread; when
 * answers cross (two changes in a row), only the newest is posted, and none once disposed.
 */
export function followTurnChanges(
  host: LedgerHost,
  engine: Engine,
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
    const turns = await turnChangesOf(engine, threadId, cwd);
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
