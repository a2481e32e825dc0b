/**
 * `threads archive [ID...] [--older-than 30d] [filters] [--dry-run]` and `threads unarchive ID...` (#36): archived is
 * a `meta_patch` in the thread's own file (the index is rebuilt from it); an archived thread leaves the Sessions
 * view and `threads list` (`--archived` lists them) and stays in recall.
 */
import { parseSince } from "../../core/index/away-summary";
import { localEngine } from "../../core/engine/local";
import type { EngineRequest } from "../../core/engine/requests";
import { EXIT } from "../io";
import { shortId, writeJson, type SubContext } from "./common";
import { queryOf } from "./filters";
import { printThreads } from "./list";

export async function archive(ctx: SubContext): Promise<number> {
  const { flags } = ctx;
  const olderThan = typeof flags["older-than"] === "string" ? parseSince(flags["older-than"]) : undefined;
  const { workspace, agent, origin, status, worktree } = await queryOf(ctx);
  return setArchived(ctx, { archived: true, workspace, agent, origin, status, worktree, olderThan });
}

export async function unarchive(ctx: SubContext): Promise<number> {
  return setArchived(ctx, { archived: false });
}

type Picks = Omit<Extract<EngineRequest, { op: "threads.archive" }>, "op" | "ids" | "dryRun">;

/**
 * Archives (or brings back) the threads named (IDs), else those `picks` filter (the engine picks them); a thread
 * another process is writing is left as it is and named.
 */
async function setArchived(ctx: SubContext, picks: Picks): Promise<number> {
  const { io } = ctx;
  const { archived } = picks;
  const dryRun = ctx.flags["dry-run"] === true;
  const engine = localEngine({ store: ctx.store });
  const { todo, done, failed } = await engine.call({ op: "threads.archive", ...picks, ids: ctx.args, dryRun });
  const verb = archived ? "archive" : "unarchive";
  if (dryRun) {
    if (ctx.json) writeJson(io, { dryRun: true, [verb]: todo });
    else {
      io.stdout.write(`would ${verb} ${todo.length} thread${todo.length === 1 ? "" : "s"}\n`);
      printThreads(io, todo);
    }
    return EXIT.ok;
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
