/** `threads list [--cwd DIR] [--agent ID] [--all] [--limit N]`: this workspace's threads by day, newest first. */
import { resolve } from "node:path";
import { groupByDay, openSyncedIndex } from "../../core/index/threads-index";
import { gitInfo } from "../../core/store/git-info";
import { EXIT } from "../io";
import { clock, shortId, writeJson, type SubContext } from "./common";

export function list(ctx: SubContext): number {
  const { io, store, flags } = ctx;
  store.markInterrupted();
  // default: the repository (or folder) we are in, so a subfolder still lists its workspace's threads
  const workspace = flags.all
    ? undefined
    : typeof flags.cwd === "string"
      ? resolve(io.cwd, flags.cwd)
      : (gitInfo(io.cwd).repoRoot ?? io.cwd);
  const agent = typeof flags.agent === "string" ? flags.agent : undefined;
  const limit = typeof flags.limit === "number" ? flags.limit : undefined;
  const { index } = openSyncedIndex(store);
  try {
    const threads = index.list({ workspace, agent, limit });
    if (ctx.json) {
      writeJson(io, threads);
      return EXIT.ok;
    }
    if (!threads.length) {
      io.stdout.write(`no threads${workspace ? ` in ${workspace} (use --all for every workspace)` : ""}\n`);
      return EXIT.ok;
    }
    for (const day of groupByDay(threads)) {
      io.stdout.write(`${day.day}\n`);
      for (const t of day.threads) {
        const turns = `${t.turns} turn${t.turns === 1 ? "" : "s"}`;
        io.stdout.write(
          `  ${shortId(t.id)}  ${clock(t.lastActivity)}  ${t.status.padEnd(11)}  ${t.agentId.padEnd(8)}  ${turns.padEnd(9)}  ${t.title ?? "(untitled)"}\n`,
        );
      }
    }
    return EXIT.ok;
  } finally {
    index.close();
  }
}
