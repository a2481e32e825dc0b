/**
 * The engine requests of snapshots and exports (core/engine/requests.ts): listing, reading, saving and restoring
 * session snapshots (core/snapshot), a thread as Markdown, and where exports go. Progress is the core's message
 * count; a restore's warnings go in order with it.
 */
import { defaultExportDir } from "../snapshot/export-dir";
import { listSnapshots, readSnapshot, restoreSnapshot } from "../snapshot/load";
import { exportMarkdown, markdownFileName } from "../snapshot/markdown-file";
import { filePrefixOf, saveSnapshot, snapshotFileName, snapshotFromThread, type Progress } from "../snapshot/save";
import type { Handlers, Report } from "./serve-types";

const counted =
  (report: Report): Progress =>
  (done, total) =>
    report({ t: "progress", done, total });

export const snapshotOps: Handlers<
  "export.folder" | "export.names" | "snapshot.list" | "snapshot.inspect" | "snapshot.export" | "snapshot.restore"
> = {
  "export.folder": async (_ctx, req) => ({ dir: await defaultExportDir(req.home) }),
  "export.names": ({ store }, req) => {
    const metadata = store.readMetadata(req.threadId);
    const named = { saved_at: new Date().toISOString(), file_prefix: filePrefixOf(metadata) };
    return {
      snapshot: snapshotFileName({ ...named, state: { agent: metadata.agent.id, model: metadata.model } }),
      markdown: markdownFileName({ metadata }),
    };
  },
  "snapshot.list": (_ctx, req) =>
    req.dirs
      .flatMap((d) => listSnapshots(d.dir, { savedOnly: d.savedOnly === true }))
      .sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt)),
  "snapshot.inspect": (_ctx, req) => {
    const snap = readSnapshot(req.path);
    const { state } = snap;
    return {
      path: req.path,
      savedAt: snap.saved_at,
      size: Buffer.byteLength(JSON.stringify(snap)),
      messageCount: state.messages.length,
      agent: state.agent,
      model: state.model,
      title: state.title ?? null,
      rootDir: state.root_dir,
    };
  },
  "snapshot.export": ({ store }, req, report) => {
    const snap = snapshotFromThread(store.read(req.threadId), { onProgress: counted(report) });
    const path = saveSnapshot(snap, { outFile: req.outFile, dir: req.dir });
    return { path, messages: snap.state.messages.length };
  },
  "snapshot.restore": ({ store }, req, report) => {
    const snap = readSnapshot(req.path);
    const threadId = restoreSnapshot(store, snap, req.path, {
      rootDir: req.rootDir,
      allowedRoots: req.allowedRoots,
      onWarning: (message) => report({ t: "warning", message }),
      onProgress: counted(report),
    });
    return { threadId, path: store.pathFor(threadId), messages: snap.state.messages.length };
  },
};

export const markdownOps: Handlers<"markdown.export"> = {
  "markdown.export": ({ store }, req) => {
    const res = exportMarkdown(store.read(req.threadId), store.threadsDir, req.outFile);
    return {
      markdown: res.markdown,
      ...(res.path ? { path: res.path } : {}),
      assets: res.assets,
      warnings: res.warnings,
    };
  },
};
