/**
 * Keep, Undo and Keep all of inline review and the thread panel (requests-review.ts), served through the ledger this
 * process writes (the window's live one: one writer per ledger) or one opened for the request. An undo writes only
 * a file the ledger recorded the change to and that is inside the thread's folders, links on the way resolved (as a
 * restore checks them), through the window's editor when the engine has one (its unsaved text is what the undo
 * merges into).
 */
import { AcpThreadsError } from "../errors";
import type { EditLedger } from "../ledger/edit-ledger";
import { keepAllOf, keepChange, undoChange } from "../ledger/review";
import { ignoredText, outsideFolders } from "../thread/folders";
import { withLedger } from "./serve-ledger-open";
import { rootsOf } from "./serve-ledger-restore";
import type { EngineContext, Handlers } from "./serve-types";

/**
 * The change a request names, as the ledger records it (the thread's id included, as the window's review always
 * recorded it: an undo's summary names its target whole).
 */
const targetOf = (req: { threadId: string; target: string; path: string; hunk?: number }) => ({
  threadId: req.threadId,
  op: req.target,
  path: req.path,
  hunk: req.hunk ?? null,
});

/**
 * `withLedger` for one thread's request: a thread id that is not one (a path) is refused (`usage`) as the store
 * refuses it, before the ledger is touched.
 */
export function withThreadLedger<T>(
  ctx: EngineContext,
  threadId: string,
  fn: (ledger: EditLedger) => Promise<T>,
): Promise<T> {
  ctx.store.pathFor(threadId);
  return withLedger(ctx, fn);
}

export const reviewKeepOps: Handlers<"review.keep" | "review.undo" | "review.keepAll"> = {
  "review.keep": (ctx, req) =>
    withThreadLedger(ctx, req.threadId, async (ledger) => {
      await keepChange(ledger, req.threadId, targetOf(req));
      return {};
    }),
  "review.undo": async (ctx, req) => {
    ctx.store.pathFor(req.threadId); // a path is not a thread id (usage)
    const { metadata } = await ctx.store.readExisting(req.threadId);
    return withLedger(ctx, async (ledger) => {
      const { folders, ignored } = await rootsOf(metadata, ledger);
      if ((await outsideFolders(folders, [req.path])).length)
        throw new AcpThreadsError(
          "path_outside_workspace",
          `the undo would write outside the thread's folders (${folders.join(", ")}): ${req.path}; nothing was undone` +
            (ignored.length ? ` (recorded folders not taken: ${ignoredText(ignored)})` : ""),
          { outside: [req.path] },
        );
      const { editor } = ctx;
      const op = await undoChange(ledger, req.threadId, targetOf(req), {
        cwd: metadata.cwd,
        ...(req.force ? { force: true } : {}),
        ...(editor ? { writer: editor, read: (p: string) => editor.currentText(p) } : {}),
      });
      return { op: op.op };
    });
  },
  "review.keepAll": (ctx, req) =>
    withThreadLedger(ctx, req.threadId, async (ledger) => ({
      kept: await keepAllOf(ledger, req.threadId, req.target),
    })),
};
