import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { describeDiskCalls, traceDiskCalls } from "./disk-tracer";
import { threadRef } from "../../../src/core/prompt/refs";
import { readHomeSettingsAsync } from "../../../src/core/store/home-settings";
import { fakeNodePackage } from "../../fixtures/fake-agents/node-package";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { HostMessage } from "../../../src/webview/thread/protocol";
import { EXTENSION_ID, api, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot, writePastThread } from "./helpers";
import { startIn } from "./own-host";

/**
 * #35: the extension host's thread never waits on disk. Everyday flows run while every `fs.*Sync` is traced: none
 * may be called by the window's own code (src/vscode/**). Every call is listed in the log (the audit's evidence); those
 * through a converted module (below) fail the test.
 */

/**
 * Engine modules (under src/core/) the window calls on its thread whose file calls in the flows below are
 * asynchronous: no synchronous call may have one of them on its stack. Add a module once its calls are converted.
 */
const CONVERTED = [
  // a session's start looks its agent's command up on PATH off the thread (resolveCommandAsync), not with stats
  "platform/executables.ts",
  // a plain folder's tracker: the manifest cache's load (its baseline) and save (its close)
  "ledger/manifest-cache.ts",
  // the ledger's session slots: the folder's real path (and the spawner's first use under its first git probe)
  "ledger/edit-ledger.ts",
  // the panel's changed-files rows read the thread's ledger with fs/promises
  "ledger/ledger-file.ts",
  // a turn recorded in this window shows the thread's review comments (and counts the unsent) off the thread
  "store/review-notes.ts",
  // a session's start: whether the command is a Node script, its package's engines
  "runtime/node-launch.ts",
  "runtime/node-package.ts",
  // the spawner's socket directory and sockets
  "platform/spawner-client.ts",
  // the steering inbox, polled for as long as a session lives
  "session/steer-inbox.ts",
  // a thread's close: the lock's look and removal off the thread (its fsync too)
  "platform/file-lock-io.ts",
  // a window's thread records (a session's, its patches, a new thread's first record): queued, written in order on
  // the thread pool (JsonlWriter `pool`, ordered-writes.ts)
  "store/jsonl-writer.ts",
  "store/ordered-writes.ts",
  // the provenance hover's index: the ledger folder, each thread's ledger and the versions' blobs, off the thread
  "ledger/provenance.ts",
  // the versions' blobs, read by the hover's index and the panel's changed-files rows (getAsync)
  "ledger/blob-store.ts",
  // inline review: the watched threads' views and reviewed files, kept (typing reads nothing), Keep and Undo
  "ledger/review-cache.ts",
  "ledger/review.ts",
  // ... asked of the window's engine (review.placed, review.author, review.forget)
  "engine/serve-review.ts",
  // Keep all and the panel's changed-files rows through the window's engine (review.keepAll, review.turnChanges)
  "engine/serve-review-keep.ts",
  "engine/serve-review-turns.ts",
  // a permission decision's path guard: the roots' real paths and case probe, off the thread
  "platform/paths.ts",
  "acp/path-guard.ts",
  "acp/permission-decision.ts",
  // a restore's plan and writes: the thread's ledger and the versions it puts back (hasAsync, getAsync)
  "ledger/restore.ts",
  "engine/serve-ledger-restore.ts",
  // the Sessions view's Delete: the thread's look, its lock and its move to the trash (threads.delete, deleteAsync)
  "store/thread-trash.ts",
  "engine/serve-clitarget.ts",
  // choosing a Node for an agent's engines: the default node and the setting's looked up and asked their version
  "runtime/node-select.ts",
  "runtime/node-version.ts",
  // the settings the window shares with the CLI (written at each change) and the exec sweep's TTL (the window's own)
  "store/home-settings.ts",
];
/**
 * Window modules (under src/vscode/) whose own calls into the engine in the flows below are asynchronous: no
 * synchronous call may have one of them as its innermost window frame (where the window called the engine). Narrower
 * than an engine module: store/thread-store.ts and store/jsonl-reader.ts are still on the stack of other callers'
 * sync calls elsewhere (the ledger's titles read a thread).
 */
const CONVERTED_CALLERS = [
  // a panel's ops strip, its follow and its links: existsAsync / readAsync (and the catalog)
  "thread-ops.ts",
  // the prompt box: a restored new-thread panel, thread mentions, a resume: existsAsync
  "composer/",
  "thread-panel.ts",
  // the ledger feature's thread folders and titles (the hover's and the CodeLens' titles) and the panel's rows
  "ledger/ledger-feature.ts",
  "ledger/panel-changes.ts",
  // inline review's CodeLens, decorations, Keep and Undo; the review comments' thread of a file and their writes
  "ledger/inline-review.ts",
  "ledger/review-comments.ts",
  // "Review changes" of a turn (its ledger) and the recorded versions' documents of its diff
  "ledger/review-commands.ts",
  "ledger/ledger-host.ts",
  // which stored thread a command means (existsAsync)
  "ledger/hub-wiring.ts",
  // the Sessions view's Delete (the engine's threads.delete) and Rename (threads.rename: patchMetadataAsync)
  "commands/threads.ts",
  // ... Rename's way to the engine (or the thread host), shared with the panel's title edit
  "host/hosted-rename.ts",
  // ... Archive and Unarchive (patchMetadataAsync: the lock, the open, the meta_patch record and the close)
  "commands/sessions-bulk.ts",
];

/** The provenance hover's text at the start of `doc`'s first line (the editor's hover providers, as it asks them). */
async function hoverText(doc: vscode.TextDocument): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    "vscode.executeHoverProvider",
    doc.uri,
    new vscode.Position(0, 1),
  );
  return (hovers ?? [])
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === "string" ? c : "value" in c ? c.value : ""))
    .join("\n");
}

/** The Keep / Undo lenses of `doc` (the inline review's CodeLens provider, as the editor asks it). */
async function lensesOf(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
  const all =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", doc.uri)) ?? [];
  return all.filter(
    (l) => l.command?.command === "acpThreads.keepChange" || l.command?.command === "acpThreads.undoChange",
  );
}

/**
 * Inline review of the write turn's file: shown (its decorations, the review comments' context), its lenses, typed
 * into (a line added, then taken out: each edit places the hunks again), the turn's diff ("Review changes": the
 * recorded version's document), Keep, then Undo of the kept hunk (the file is as before the turn again), then Restore
 * to before that undo.
 */
async function reviewInline(threadId: string, doc: vscode.TextDocument): Promise<void> {
  const { hub } = await api();
  const editor = await vscode.window.showTextDocument(doc);
  const [keep, undo] = await waitFor("the write's Keep and Undo lenses", async () => {
    const lenses = await lensesOf(doc);
    return lenses.length === 2 ? lenses.map((l) => l.command!.arguments![0] as unknown) : undefined;
  });
  const top = new vscode.Position(0, 0);
  for (const [i, ch] of [..."typed\n"].entries()) await editor.edit((e) => e.insert(top.translate(0, i), ch));
  const moved = (await lensesOf(doc)).map((l) => l.range.start.line);
  assert.deepEqual(moved, [1, 1], "the hunk is placed below the typed line");
  await editor.edit((e) => e.delete(new vscode.Range(top, new vscode.Position(1, 0))));
  await hub.ledger.reviewTurn(threadId, 3);
  await waitFor("the turn's earlier version in its diff", () =>
    vscode.workspace.textDocuments.find((d) => d.uri.scheme === "acp-threads-ledger" && d.getText() === "before\n"),
  );
  await vscode.commands.executeCommand("acpThreads.keepChange", keep);
  await waitFor("no lens left once kept", async () => ((await lensesOf(doc)).length === 0 ? true : undefined));
  await vscode.commands.executeCommand("acpThreads.undoChange", undo);
  assert.equal(doc.getText(), "before\n", "the undo took the write back");
  const undone = await waitFor("the undo in the ledger", async () =>
    (await hub.ledger.ledger.readAsync(threadId)).ops.find((o) => o.type === "undo"),
  );
  // Restore to before the undo (its preview and its writes, through the window's engine): the agent's text is back
  await hub.ledger.restoreTurn(threadId, { op: undone.op }, { yes: true });
  assert.equal(doc.getText(), "written by the agent", "the restore put the write back");
}

describe("the window's thread and the disk", () => {
  it("makes no synchronous file call of its own in the everyday flows", async function () {
    this.timeout(120_000);
    await useFakeAgent();
    const { hub, recall } = await api();
    // the live sessions' rows of the Sessions view and their tooltips (the handoff links of a session's thread)
    const liveRows = async () => {
      hub.tree.refresh();
      const nodes = (await hub.tree.getChildren()).flatMap((g) => (g.type === "group" ? g.children : [g]));
      for (const n of nodes.filter((x) => x.type === "live"))
        await hub.tree.resolveTreeItem(hub.tree.getTreeItem(n), n);
    };
    const threadId = writePastThread(hub.home, 3, (i) => (i === 1 ? "the zanzibar quokka" : `answer ${i}`));
    // past threads the Sessions view archives, brings back and deletes (their rows, as the view hands them over)
    const rowOf = async (id: string) => {
      const { events: _events, ...thread } = (await hub.past.load(id))!;
      return { type: "past" as const, thread };
    };
    const [archived, deleted] = [writePastThread(hub.home, 1), writePastThread(hub.home, 1)];
    const [archivedRow, deletedRow] = [await rowOf(archived), await rowOf(deleted)];
    // a file the scripted agent rewrites (its write asks no permission)
    const written = join(workspaceRoot(), "src", "window-disk-provenance.txt");
    writeFileSync(written, "before\n");
    const written2 = join(workspaceRoot(), "src", "window-disk-provenance-2.txt");
    writeFileSync(written2, "before\n");
    const settings = vscode.workspace.getConfiguration("acpThreads");
    await settings.update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
    // an agent whose package.json engines no Node here satisfies, run with the Node of acpThreads.nodePath: a Node is
    // chosen for it at its start (the default node on PATH and its version, then the setting's and its version)
    const enginesDir = mkdtempSync(join(tmpdir(), "acp-window-disk-"));
    const engines = fakeNodePackage(enginesDir, { name: "engines-agent", engines: ">=99" });
    const agents = settings.get<Record<string, unknown>>("agents") ?? {};
    await settings.update(
      "agents",
      { ...agents, engines: { command: engines.bin } },
      vscode.ConfigurationTarget.Global,
    );
    await settings.update("nodePath", process.execPath, vscode.ConfigurationTarget.Global);
    const exec = hub.exec; // opened before the trace: the window opens it on its first exec run
    const trace = traceDiskCalls(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath);
    let calls;
    try {
      // a setting the window shares with the CLI through the data home (written there), and the minute's sweep of
      // finished exec runs (it read the home's settings file each time: CI, stops 57 and 58, when a flow spanned it)
      await settings.update("exec.ttlMinutes", 45, vscode.ConfigurationTarget.Global);
      await waitFor("the shared setting written", async () => {
        await hub.shared.written;
        return (await readHomeSettingsAsync(hub.home)).execTtlMinutes === 45 || undefined;
      });
      hub.pruneExecs();
      // the exec registry's own minute's sweep, as its timer runs it (it listed, read and removed the runs' files
      // synchronously: CI, stop 59, `readdirSync run-state.ts ← registry.ts sweep ← its setInterval`)
      await exec.sweepAsync();
      // the Sessions view: a refresh, its rows and a row's tooltip
      hub.tree.refresh();
      const past = await waitFor("the past thread in the Sessions view", async () => {
        const groups = await hub.tree.getChildren();
        return groups
          .flatMap((g) => (g.type === "group" ? g.children : [g]))
          .find((n) => n.type === "past" && n.thread.threadId === threadId);
      });
      await hub.tree.resolveTreeItem(hub.tree.getTreeItem(past), past);
      // its Archive, Unarchive and Delete (without the dialog) of a row
      await vscode.commands.executeCommand("acpThreads.archive", archivedRow);
      assert.equal((await hub.threads.readExisting(archived)).metadata.archived, true, "archived");
      await vscode.commands.executeCommand("acpThreads.unarchive", archivedRow);
      assert.equal((await hub.threads.readExisting(archived)).metadata.archived, false, "brought back");
      await vscode.commands.executeCommand("acpThreads.delete", deletedRow, { agentSession: false });
      assert.equal(await hub.threads.existsAsync(deleted), false, "moved to the trash");
      // its Rename of a row (the title given: no box)
      await vscode.commands.executeCommand("acpThreads.rename", archivedRow, "a name of my own");
      assert.equal((await hub.threads.readExisting(archived)).metadata.title, "a name of my own", "renamed");
      // a stored thread's panel
      hub.panels.open(threadId);
      await waitFor("the thread panel", () => hub.panels.rendered(threadId));
      // recall: a search and the recent list
      const found = await recall.search(hub, "zanzibar quokka", { all: false, allTerms: true });
      assert.equal(found.type, "results");
      await recall.search(hub, "", { all: true, allTerms: false });
      // a live session's turn with the scripted agent, its rows in the Sessions view
      const s = await spawnIdleFake();
      await s.prompt("hello");
      await liveRows();
      // a prompt from the box that mentions the stored thread
      const posts: HostMessage[] = [];
      const box: ComposerPanel = { threadId: s.threadId, post: (m) => void posts.push(m) };
      const turn = new Promise<void>((r) => s.onTurnDone(() => r()));
      const mention = { type: "context" as const, ref: threadRef(threadId, "the quokka thread") };
      await hub.composer.handle(box, { type: "send", parts: [{ type: "text", text: "about " }, mention] });
      await turn;
      assert.deepEqual(
        posts.filter((m) => m.type === "composerNotice"),
        [],
        "the mention was sent",
      );
      // a turn that writes a file, then a provenance hover on its line (the index reads the ledgers, after the change)
      await s.prompt(`write ${written} written by the agent`);
      await waitFor("the write turn in the ledger", async () =>
        (await hub.ledger.ledger.readAsync(s.threadId)).ops.find((o) => o.files.some((f) => f.path === written)),
      );
      const doc = await vscode.workspace.openTextDocument(written);
      const hover = await waitFor("the provenance hover", async () => {
        const text = await hoverText(doc);
        return /Written by/.test(text) ? text : undefined;
      });
      assert.match(hover, /Written by \*\*.+\*\* in turn 3 of/);
      // a second file, hovered once the session is closed (the review below changes the first file's origins)
      await s.prompt(`write ${written2} written again`);
      await waitFor("the second write in the ledger", async () =>
        (await hub.ledger.ledger.readAsync(s.threadId)).ops.find((o) => o.files.some((f) => f.path === written2)),
      );
      await reviewInline(s.threadId, doc);
      await s.close();
      await liveRows();
      // the hover again, the thread stored now: its title from the threads catalog, no synchronous read of it
      const title = (await hub.threads.readExisting(s.threadId)).metadata.title;
      const doc2 = await vscode.workspace.openTextDocument(written2);
      const stored = await waitFor("the stored thread's provenance hover", async () => {
        const text = await hoverText(doc2);
        return /Written by/.test(text) ? text : undefined;
      });
      assert.match(stored, /Written by \*\*.+\*\* in turn 4 of/);
      const shown = title?.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&"); // as the hover's Markdown escapes it
      if (shown) assert.ok(stored.includes(shown), `the hover names the thread "${title}": ${stored}`);
      // a session of the agent that needs a Node chosen for it
      const e = await spawnIdleFake("hello", "engines");
      assert.equal(e.status, "idle", e.statusDetail);
      await e.close();
    } finally {
      calls = trace.stop();
      await settings.update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
      await settings.update("agents", agents, vscode.ConfigurationTarget.Global);
      await settings.update("nodePath", undefined, vscode.ConfigurationTarget.Global);
      await settings.update("exec.ttlMinutes", undefined, vscode.ConfigurationTarget.Global);
      rmSync(enginesDir, { recursive: true, force: true });
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
    console.log(`[window-disk] ${calls.length} synchronous file calls from the bundle:\n${describeDiskCalls(calls)}`);
    // stop 56 ended at 26, all the thread writer's writeSync; its records now go out on the thread pool (stop 57)
    // the calls in the message: a run's summary prints the failure's message, not the log above (CI, stops 57 and 58:
    // one call, the minute's exec sweep reading the home's settings, whenever the flows spanned it)
    assert.equal(
      calls.length,
      0,
      `the figure pinned: no synchronous file call from the bundle in these flows:\n${describeDiskCalls(calls)}`,
    );
    const own = calls.filter((c) => c.own);
    assert.deepEqual(describeDiskCalls(own), "", "the window's own code called fs.*Sync on the host's thread");
    // engine modules whose calls in these flows went off the thread: none may come back
    const through = (c: { chain: string[] }, m: string) =>
      c.chain.some((f) => f.replace(/\\/g, "/").startsWith(`src/core/${m}:`));
    const converted = calls.filter((c) => CONVERTED.some((m) => through(c, m)));
    assert.equal(
      describeDiskCalls(converted),
      "",
      "an engine module converted to asynchronous file calls made a sync one",
    );
    // window modules whose calls into the engine went off the thread: none may call a sync one again
    const caller = (c: { chain: string[] }) =>
      c.chain
        .map((f) => f.replace(/\\/g, "/"))
        .find((f) => f.startsWith("src/vscode/"))
        ?.replace(/^src\/vscode\/|:\d+$/g, "");
    const calledBy = (c: { chain: string[] }) => {
      const file = caller(c);
      return !!file && CONVERTED_CALLERS.some((m) => (m.endsWith("/") ? file.startsWith(m) : file === m));
    };
    assert.equal(
      describeDiskCalls(calls.filter(calledBy)),
      "",
      "a window module converted to asynchronous engine calls made a sync one",
    );
  });

  it("writes the records of its own thread host's runs off the thread", async function () {
    this.timeout(120_000);
    await useFakeAgent();
    const { hub } = await api();
    const turns = async (id: string) =>
      (await hub.threads.readExisting(id)).records.filter((r) => r.kind === "turn_end").length;
    const trace = traceDiskCalls(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath);
    let calls;
    let id: string | undefined;
    try {
      // a run of the window's own in-process host (window-host.ts, what `window` mode runs under the switch): a
      // new thread's first record, the agent's answers, its turn ends; a second prompt to the run kept open; its stop
      id = await startIn(hub, "hello");
      const started = id;
      await waitFor("the first turn ended", async () => (await turns(started)) === 1);
      const conn = await hub.hosted.own!.connection();
      await conn!.request({ t: "prompt", threadId: id, text: "again" });
      await waitFor("the second turn ended", async () => (await turns(started)) === 2);
      await hub.hosted.stop(id);
      await waitFor("its row gone once the run ended", () => !hub.hosted.rows().some((r) => r.threadId === started));
    } finally {
      calls = trace.stop();
      if (id) await hub.hosted.stop(id).catch(() => undefined);
    }
    console.log(`[window-disk] own host's run: ${calls.length} synchronous file calls:\n${describeDiskCalls(calls)}`);
    // the run's thread is whole: no torn or bad line, both turns' ends in it
    const read = await hub.threads.readExisting(id);
    assert.deepEqual(read.warnings, [], "no torn or bad line");
    assert.equal(read.records.filter((r) => r.kind === "turn_end").length, 2);
    assert.equal(calls.length, 0, "no synchronous file call from the bundle during the own host's run");
  });
});
