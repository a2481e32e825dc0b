/**
 * `threads list [filters] [--since 8h|2d|DATE] [--archived] [--limit N] [--rescan]`: this workspace's threads by day,
 * newest first, answered from the threads index (#36: no thread file is read unless it changed). `--since` prints
 * "since you left": what ended, failed or waits for input since then, with the files each changed.
 */
import { parseSince, summarizeAway, awayLine, type AwayThread } from "../../core/index/away-summary";
import { localEngine } from "../../core/engine/local";
import type { EngineReplies } from "../../core/engine/requests";
import { groupByDay } from "../../core/index/thread-days";
import type { IndexedThread } from "../../core/model/thread-list";
import { EXIT, type CliIO } from "../io";
import { clock, shortId, writeJson, type SubContext } from "./common";
import { queryOf } from "./filters";

export async function list(ctx: SubContext): Promise<number> {
  const { io, flags } = ctx;
  const q = await queryOf(ctx);
  const since = typeof flags.since === "string" ? parseSince(flags.since) : undefined;
  const limit = typeof flags.limit === "number" ? flags.limit : undefined;
  const archived = flags.archived ? "only" : "exclude";
  const rescan = flags.rescan === true;
  const engine = localEngine({ store: ctx.store });
  if (since)
    return printAway(ctx, since, await engine.call({ op: "threads.away", ...q, since, limit, archived, rescan }));
  const threads = await engine.call({ op: "threads.list", ...q, limit, archived, rescan });
  if (ctx.json) {
    writeJson(io, threads);
    return EXIT.ok;
  }
  if (!threads.length) {
    io.stdout.write(`no threads${q.workspace ? ` in ${q.workspace} (use --all for every workspace)` : ""}\n`);
    return EXIT.ok;
  }
  printThreads(io, threads);
  return EXIT.ok;
}

/** Threads by day, one line each: id, time, status, agent, turns, title. */
export function printThreads(io: CliIO, threads: IndexedThread[]): void {
  for (const day of groupByDay(threads)) {
    io.stdout.write(`${day.day}\n`);
    for (const t of day.threads) io.stdout.write(`  ${threadLine(t)}\n`);
  }
}

function threadLine(t: IndexedThread): string {
  const turns = `${t.turns} turn${t.turns === 1 ? "" : "s"}`;
  return `${shortId(t.id)}  ${clock(t.lastActivity)}  ${t.status.padEnd(11)}  ${t.agentId.padEnd(8)}  ${turns.padEnd(9)}  ${t.title ?? "(untitled)"}`;
}

const HEADINGS = { waiting: "wait for your input", failed: "failed", ended: "ended", running: "still running" };

/** "Since you left": the summary line, then each kind's threads with the files they changed since then. */
function printAway(ctx: SubContext, since: string, away: EngineReplies["threads.away"]): number {
  const summary = summarizeAway(away.threads, since, (t) => away.files[t.id] ?? []);
  if (ctx.json) {
    writeJson(ctx.io, {
      since,
      counts: summary.counts,
      threads: summary.threads.map((a) => ({ ...a.thread, kind: a.kind, files: a.files })),
    });
    return EXIT.ok;
  }
  const out = ctx.io.stdout;
  out.write(`since ${new Date(since).toLocaleString()}: ${awayLine(summary.counts)}\n`);
  for (const kind of ["waiting", "failed", "ended", "running"] as const) {
    const of: AwayThread[] = summary.threads.filter((a) => a.kind === kind);
    if (!of.length) continue;
    out.write(`\n${HEADINGS[kind]}\n`);
    for (const a of of) {
      out.write(`  ${threadLine(a.thread)}\n`);
      for (const f of a.files) out.write(`      ${f}\n`);
    }
  }
  return EXIT.ok;
}
