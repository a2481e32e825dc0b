/**
 * `threads export ID [--out FILE] [--dir DIR] [--jsonl]`: a session snapshot (default
 * `~/Downloads/saved_session_...json`, else in the home folder: never the repository, #37) or, with --jsonl, a
 * copy of the raw thread file.
 * `threads import [FILE | --latest] [--dir DIR] [--root DIR]`: without a file, lists the snapshots newest first
 * (those in the export folder, and the workspace's `.acp-threads/` that earlier versions saved into); a `.jsonl`
 * FILE is a thread exported with --jsonl and is added as it is.
 */
import { basename, join, resolve } from "node:path";
import { localEngine } from "../../core/engine/local";
import type { Engine, EngineProgress } from "../../core/engine/requests";
import { AcpThreadsError } from "../../core/errors";
import { SNAPSHOT_DIR, type SnapshotListing } from "../../core/model/snapshot";
import { str } from "../../core/util/guards";
import { formatBytes, table } from "../exec/context";
import { EXIT, type CliIO } from "../io";
import { shortId, writeJson, type SubContext } from "./common";

/** A request's progress on stderr (message counts), its warnings in order with it. */
function progress(io: CliIO, what: string): (p: EngineProgress) => void {
  return (p) => {
    // a snapshot reports counts and warnings, no steps
    if (p.t === "progress") io.stderr.write(`${what} ${p.done}/${p.total} messages\r${p.done === p.total ? "\n" : ""}`);
    else if ("message" in p) io.stderr.write(`warning: ${p.message}\n`);
  };
}

/** The export folder (the user's Downloads, else home: never the repository, #37) for the home `io.env` names. */
async function exportFolder(engine: Engine, io: CliIO): Promise<string> {
  const home = io.env.HOME || io.env.USERPROFILE || undefined;
  return (await engine.call({ op: "export.folder", ...(home ? { home } : {}) })).dir;
}

export async function exportThread(ctx: SubContext): Promise<number> {
  const { io, store, flags } = ctx;
  const engine = localEngine({ store });
  const { threadId: id } = await engine.call({ op: "threads.resolve", threadId: ctx.args[0]! });
  const out = str(flags.out) && resolve(io.cwd, str(flags.out)!);
  if (flags.jsonl) {
    if (!out) throw new AcpThreadsError("usage", "--jsonl needs --out FILE");
    const { bytes } = store.exportJsonl(id, out);
    if (ctx.json) writeJson(io, { id, path: out, bytes });
    else io.stdout.write(`exported ${shortId(id)} (${formatBytes(bytes)}) to ${out}\n`);
    return EXIT.ok;
  }
  const dir = str(flags.dir) ? resolve(io.cwd, str(flags.dir)!) : await exportFolder(engine, io);
  const { path, messages } = await engine.call(
    { op: "snapshot.export", threadId: id, ...(out ? { outFile: out } : {}), dir },
    ctx.json ? {} : { onProgress: progress(io, "saving") },
  );
  if (ctx.json) writeJson(io, { id, path, messages });
  else io.stdout.write(`saved ${shortId(id)} (${messages} messages) to ${path}\n`);
  return EXIT.ok;
}

function describe(l: SnapshotListing): string {
  return `saved ${l.savedAt}, ${formatBytes(l.size)}, ${l.messageCount} message${l.messageCount === 1 ? "" : "s"}, agent ${l.agent}${l.model ? ` (${l.model})` : ""}`;
}

/**
 * The snapshots `threads import` offers: those in --dir, else the export folder's (files a save named) and the
 * workspace's `.acp-threads/` (where earlier versions saved), newest first; `where` names the folders.
 */
async function snapshotsFor(ctx: SubContext, engine: Engine): Promise<{ all: SnapshotListing[]; where: string }> {
  const { io, flags } = ctx;
  if (str(flags.dir)) {
    const dir = resolve(io.cwd, str(flags.dir)!);
    return { all: await engine.call({ op: "snapshot.list", dirs: [{ dir }] }), where: dir };
  }
  const exports = await exportFolder(engine, io);
  const earlier = join(io.cwd, SNAPSHOT_DIR);
  const all = await engine.call({ op: "snapshot.list", dirs: [{ dir: exports, savedOnly: true }, { dir: earlier }] });
  return { all, where: `${exports} or ${earlier}` };
}

export async function importSnapshot(ctx: SubContext): Promise<number> {
  const { io, store } = ctx;
  const engine = localEngine({ store });
  let path = ctx.args[0] && resolve(io.cwd, ctx.args[0]);
  if (!path && !ctx.flags.latest) {
    const { all, where } = await snapshotsFor(ctx, engine);
    if (ctx.json) writeJson(io, all);
    else if (!all.length) io.stdout.write(`no snapshots in ${where}\n`);
    else {
      const rows = all.map((l) => [
        l.savedAt,
        formatBytes(l.size),
        l.error ? "-" : String(l.messageCount),
        l.agent || "-",
        l.error ? `${basename(l.path)} (unreadable: ${l.error})` : basename(l.path),
      ]);
      io.stdout.write(table([["SAVED", "SIZE", "MESSAGES", "AGENT", "FILE"], ...rows]));
      io.stdout.write(`\nrestore one with: acp-threads threads import FILE   (or --latest)\n`);
    }
    return EXIT.ok;
  }
  if (!path) {
    const { all, where } = await snapshotsFor(ctx, engine);
    const newest = all.find((l) => !l.error);
    if (!newest) throw new AcpThreadsError("not_found", `no readable snapshots in ${where}`);
    path = newest.path;
  }
  if (path.endsWith(".jsonl")) {
    const id = store.importJsonl(path);
    if (ctx.json) writeJson(io, { id, path: store.pathFor(id), source: path });
    else io.stdout.write(`imported thread ${id}\n`);
    return EXIT.ok;
  }
  const { rootDir: _, ...listing } = await engine.call({ op: "snapshot.inspect", path });
  if (!ctx.json) io.stderr.write(`restoring ${path}\n  ${describe(listing)}\n`);
  const root = str(ctx.flags.root) && resolve(io.cwd, str(ctx.flags.root)!);
  const restored = await engine.call(
    { op: "snapshot.restore", path, ...(root ? { rootDir: root } : {}) },
    {
      onProgress: ctx.json
        ? (p) => p.t === "warning" && io.stderr.write(`warning: ${p.message}\n`)
        : progress(io, "restoring"),
    },
  );
  if (ctx.json)
    writeJson(io, { id: restored.threadId, path: restored.path, source: path, messages: listing.messageCount });
  else io.stdout.write(`restored as thread ${restored.threadId}\n`);
  return EXIT.ok;
}
