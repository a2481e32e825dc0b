/**
 * `threads export ID [--out FILE] [--dir DIR] [--jsonl]`: a session snapshot (default
 * `<workspace>/.acp-threads/saved_session_...json`) or, with --jsonl, a copy of the raw thread file.
 * `threads import [FILE | --latest] [--dir DIR] [--root DIR]`: without a file, lists the snapshots newest first;
 * a `.jsonl` FILE is a thread exported with --jsonl and is added as it is.
 */
import { basename, resolve } from "node:path";
import { AcpThreadsError } from "../../core/errors";
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
  const dir = str(flags.dir) && resolve(io.cwd, str(flags.dir)!);
  const path = saveSnapshot(snap, { outFile: out || undefined, dir: dir || undefined });
  if (ctx.json) writeJson(io, { id, path, messages: snap.state.messages.length });
  else io.stdout.write(`saved ${shortId(id)} (${snap.state.messages.length} messages) to ${path}\n`);
  return EXIT.ok;
}

function describe(l: SnapshotListing): string {
  return `saved ${l.savedAt}, ${formatBytes(l.size)}, ${l.messageCount} message${l.messageCount === 1 ? "" : "s"}, agent ${l.agent}${l.model ? ` (${l.model})` : ""}`;
}

export function importSnapshot(ctx: SubContext): number {
  const { io, store, flags } = ctx;
  const dir = resolve(io.cwd, str(flags.dir) ?? SNAPSHOT_DIR);
  let path = ctx.args[0] && resolve(io.cwd, ctx.args[0]);
  if (!path && !flags.latest) {
    const all = listSnapshots(dir);
    if (ctx.json) writeJson(io, all);
    else if (!all.length) io.stdout.write(`no snapshots in ${dir}\n`);
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
    const newest = listSnapshots(dir).find((l) => !l.error);
    if (!newest) throw new AcpThreadsError("not_found", `no readable snapshots in ${dir}`);
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
  const root = str(flags.root) && resolve(io.cwd, str(flags.root)!);
  const id = restoreSnapshot(store, snap, path, {
    rootDir: root || undefined,
    onWarning: (w) => io.stderr.write(`warning: ${w}\n`),
    onProgress: ctx.json ? undefined : progress(io, "restoring"),
  });
  if (ctx.json) writeJson(io, { id, path: store.pathFor(id), source: path, messages: listing.messageCount });
  else io.stdout.write(`restored as thread ${id}\n`);
  return EXIT.ok;
}
