/**
 * `threads export ID [--out FILE] [--dir DIR] [--jsonl]`: a session snapshot (default
 * `~/Downloads/saved_session_...json`, else in the home folder: never the repository, #37) or, with --jsonl, a
 * copy of the raw thread file.
 * `threads import [FILE | --latest] [--dir DIR] [--root DIR]`: without a file, lists the snapshots newest first
 * (those in the export folder, and the workspace's `.acp-threads/` that earlier versions saved into); a `.jsonl`
 * FILE is a thread exported with --jsonl and is added as it is.
 */
import { basename, join, resolve } from "node:path";
import { AcpThreadsError } from "../../core/errors";
import { defaultExportDirSync, userHome } from "../../core/snapshot/export-dir";
import { listSnapshots, readSnapshot, restoreSnapshot, type SnapshotListing } from "../../core/snapshot/load";
import { saveSnapshot, snapshotFromThread, SNAPSHOT_DIR, type Progress } from "../../core/snapshot/save";
import { str } from "../../core/util/guards";
import { formatBytes, table } from "../exec/context";
import { EXIT, type CliIO } from "../io";
import { shortId, writeJson, type SubContext } from "./common";

function progress(io: CliIO, what: string): Progress {
  return (done, total) => io.stderr.write(`${what} ${done}/${total} messages\r${done === total ? "\n" : ""}`);
}

export function exportThread(ctx: SubContext): number {
  const { io, store, flags } = ctx;
  const id = store.resolveId(ctx.args[0]!);
  const out = str(flags.out) && resolve(io.cwd, str(flags.out)!);
  if (flags.jsonl) {
    if (!out) throw new AcpThreadsError("usage", "--jsonl needs --out FILE");
    const { bytes } = store.exportJsonl(id, out);
    if (ctx.json) writeJson(io, { id, path: out, bytes });
    else io.stdout.write(`exported ${shortId(id)} (${formatBytes(bytes)}) to ${out}\n`);
    return EXIT.ok;
  }
  const snap = snapshotFromThread(store.read(id), { onProgress: ctx.json ? undefined : progress(io, "saving") });
  const dir = str(flags.dir) ? resolve(io.cwd, str(flags.dir)!) : defaultExportDirSync(userHome(io.env));
  const path = saveSnapshot(snap, { outFile: out || undefined, dir });
  if (ctx.json) writeJson(io, { id, path, messages: snap.state.messages.length });
  else io.stdout.write(`saved ${shortId(id)} (${snap.state.messages.length} messages) to ${path}\n`);
  return EXIT.ok;
}

function describe(l: SnapshotListing): string {
  return `saved ${l.savedAt}, ${formatBytes(l.size)}, ${l.messageCount} message${l.messageCount === 1 ? "" : "s"}, agent ${l.agent}${l.model ? ` (${l.model})` : ""}`;
}

/**
 * The snapshots `threads import` offers: those in --dir, else the export folder's (files a save named) and the
 * workspace's `.acp-threads/` (where earlier versions saved), newest first; `where` names the folders.
 */
function snapshotsFor(ctx: SubContext): { all: SnapshotListing[]; where: string } {
  const { io, flags } = ctx;
  if (str(flags.dir)) {
    const dir = resolve(io.cwd, str(flags.dir)!);
    return { all: listSnapshots(dir), where: dir };
  }
  const exports = defaultExportDirSync(userHome(io.env));
  const earlier = join(io.cwd, SNAPSHOT_DIR);
  const all = [...listSnapshots(exports, { savedOnly: true }), ...listSnapshots(earlier)];
  all.sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
  return { all, where: `${exports} or ${earlier}` };
}

export function importSnapshot(ctx: SubContext): number {
  const { io, store } = ctx;
  let path = ctx.args[0] && resolve(io.cwd, ctx.args[0]);
  if (!path && !ctx.flags.latest) {
    const { all, where } = snapshotsFor(ctx);
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
    const { all, where } = snapshotsFor(ctx);
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
  const snap = readSnapshot(path);
  const listing: SnapshotListing = {
    path,
    savedAt: snap.saved_at,
    size: 0,
    messageCount: snap.state.messages.length,
    agent: snap.state.agent,
    model: snap.state.model,
    title: snap.state.title ?? null,
  };
  listing.size = Buffer.byteLength(JSON.stringify(snap));
  if (!ctx.json) io.stderr.write(`restoring ${path}\n  ${describe(listing)}\n`);
  const root = str(ctx.flags.root) && resolve(io.cwd, str(ctx.flags.root)!);
  const id = restoreSnapshot(store, snap, path, {
    rootDir: root || undefined,
    onWarning: (w) => io.stderr.write(`warning: ${w}\n`),
    onProgress: ctx.json ? undefined : progress(io, "restoring"),
  });
  if (ctx.json) writeJson(io, { id, path: store.pathFor(id), source: path, messages: listing.messageCount });
  else io.stdout.write(`restored as thread ${id}\n`);
  return EXIT.ok;
}
