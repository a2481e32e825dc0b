/**
 * `threads archive [ID...] [--older-than 30d] [filters] [--dry-run]` and `threads unarchive ID...` (#36): archived is
 * a `meta_patch` in the thread's own file (the index is rebuilt from it); an archived thread leaves the Sessions
 * view and `threads list` (`--archived` lists them) and stays in recall.
 */
import { parseSince } from "../../core/index/away-summary";
import { withSyncedIndex, type IndexedThread } from "../../core/index/threads-index";
import { AcpThreadsError, errorMessage } from "../../core/errors";
import { EXIT } from "../io";
import { shortId, writeJson, type SubContext } from "./common";
import { queryOf } from "./filters";
import { printThreads } from "./list";

export function archive(ctx: SubContext): number {
  const { flags, store } = ctx;
  const olderThan = typeof flags["older-than"] === "string" ? parseSince(flags["older-than"]) : undefined;
  const q = queryOf(ctx);
  const filtered = olderThan || q.agent || q.origin || q.status || q.worktree;
  if (!ctx.args.length && !filtered)
    throw new AcpThreadsError(
      "usage",
      "name the threads to archive (IDs) or filter them (--older-than, --agent, --origin, --status, --worktree)",
    );
  const picked: IndexedThread[] = ctx.args.length
    ? withSyncedIndex(store, (index) => ctx.args.map((a) => index.get(store.resolveId(a))!).filter(Boolean))
    : withSyncedIndex(store, (index) => index.list({ ...q, before: olderThan }));
  return setArchived(ctx, picked, true);
}

export function unarchive(ctx: SubContext): number {
  const ids = ctx.args.map((a) => ctx.store.resolveId(a));
  const picked = withSyncedIndex(ctx.store, (index) => ids.map((id) => index.get(id)!).filter(Boolean));
  return setArchived(ctx, picked, false);
}

/** Archives (or brings back) `threads`; a thread another process is writing is left as it is and named. */
function setArchived(ctx: SubContext, threads: IndexedThread[], archived: boolean): number {
  const { io, store } = ctx;
  const todo = threads.filter((t) => t.archived !== archived);
  const verb = archived ? "archive" : "unarchive";
  if (ctx.flags["dry-run"]) {
    if (ctx.json) writeJson(io, { dryRun: true, [verb]: todo });
    else {
      io.stdout.write(`would ${verb} ${todo.length} thread${todo.length === 1 ? "" : "s"}\n`);
      printThreads(io, todo);
    }
    return EXIT.ok;
  }
  const done: string[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const t of todo) {
    try {
      store.patchMetadata(t.id, { archived });
      done.push(t.id);
    } catch (err) {
      failed.push({ id: t.id, error: errorMessage(err) });
    }
  }
  if (ctx.json) writeJson(io, { [`${verb}d`]: done, failed });
  else {
    io.stdout.write(`${verb}d ${done.length} thread${done.length === 1 ? "" : "s"}\n`);
    if (archived && done.length)
      io.stdout.write(`(list them: acp-threads threads list --archived; undo: acp-threads threads unarchive ID)\n`);
    for (const f of failed)
      io.stderr.write(`acp-threads threads ${verb}: ${shortId(f.id)} left as it is: ${f.error}\n`);
  }
  return failed.length ? EXIT.error : EXIT.ok;
}
