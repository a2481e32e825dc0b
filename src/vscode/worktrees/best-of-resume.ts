/**
 * A hosted Best of N picked up again (#35): after "Developer: Reload Window" VS Code restores its compare view (the
 * webview saved its record's id) and hands it here; a second window on the same folder, or a reloaded window whose
 * view was not restored, finds the records still open (not applied or discarded, not closed by the user) whose
 * window is gone, and reopens their view. Either way the view shows each candidate again, follows the ones the
 * host still runs from where they are, runs the checks that did not run to their end, and ranks them; Apply and
 * Discard work as before. One window follows a record at a time: the record names its window's process.
 */
import { setTimeout as sleep } from "node:timers/promises";
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { repositoryOfFolders } from "../../core/host/run-roots";
import { endedRun, resumeBestOf } from "../../core/worktree/best-of";
import {
  isOpen,
  ownedHere,
  ownerGone,
  ownerHere,
  resumedCandidate,
  type BestOfRecord,
} from "../../core/worktree/best-of-record";
import { background } from "../../core/util/unexpected";
import type { Hub } from "../hub";
import type { BestOfResult } from "./best-of-command";
import { followBestOf, rowOf } from "./best-of-follow";
import { CompareView } from "./compare-view";
import { followHostedCandidate } from "./hosted-candidate";

/** A record file that cannot be read (damaged, newer): said, and nothing picked up. */
function unreadable(err: unknown): undefined {
  void vscode.window.showErrorMessage(`ACP Threads: the Best of N records could not be read: ${errorMessage(err)}`);
  return undefined;
}

/** How long a restored view waits for the window that followed its Best of N to be gone. */
const OWNER_WAIT_MS = 10_000;

/** VS Code restores a compare view after a reload: its Best of N is picked up, or the view goes (nothing to show). */
export async function restoreComparePanel(
  hub: Hub,
  panel: vscode.WebviewPanel,
  state: unknown,
): Promise<BestOfResult | undefined> {
  const id = (state as { recordId?: unknown } | undefined)?.recordId;
  // its checks are commands run in the worktrees: not in an untrusted workspace
  const record =
    vscode.workspace.isTrusted && typeof id === "string" ? await hub.bestOf.store.get(id).catch(unreadable) : undefined;
  // the reloaded window's old extension host may still be on its way out: its process is waited for a while
  const deadline = Date.now() + OWNER_WAIT_MS;
  while (record && !ownerGone(record.owner) && !ownedHere(record.owner) && Date.now() < deadline) await sleep(250);
  const out = record ? await resumeRecord(hub, record, panel) : undefined;
  if (!out) panel.dispose();
  return out;
}

/** Reopens the open Best of N runs of this window's folders that no live window follows. */
export async function resumeOpenBestOf(hub: Hub): Promise<void> {
  if (!vscode.workspace.isTrusted) return; // its checks are commands run in the worktrees
  const records = await hub.bestOf.store.list().catch(unreadable);
  if (!records) return;
  for (const r of records)
    if (isOpen(r) && !hub.bestOf.follows(r.id) && ownerGone(r.owner))
      background(resumeRecord(hub, r), "reopening a Best of N");
}

/**
 * Picks the record's Best of N up in a compare view (`panel`: the one VS Code restored); resolves with its ranked
 * summaries, or undefined when another window (or this one already) follows it, it is closed, or its repository is
 * not of this window's folders.
 */
export async function resumeRecord(
  hub: Hub,
  record: BestOfRecord,
  panel?: vscode.WebviewPanel,
): Promise<BestOfResult | undefined> {
  // only a repository of this window's folders (its checks run in that repository's worktrees)
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  if (!(await repositoryOfFolders(record.repo, folders)) || !hub.bestOf.reserve(record.id)) return undefined;
  let claimed = false;
  try {
    await hub.bestOf.store.update(record.id, (r) => {
      if (!isOpen(r) || !(ownerGone(r.owner) || ownedHere(r.owner))) return false;
      r.owner = ownerHere();
      record = structuredClone(r);
      claimed = true;
    });
  } finally {
    if (!claimed) hub.bestOf.forget(record.id);
  }
  if (!claimed) return undefined;
  const rows = record.candidates.map((c) => ({
    ...rowOf(c),
    threadId: c.threadId,
    ...(c.outcome ? { outcome: c.outcome } : {}),
  }));
  const view = new CompareView(hub, record.prompt, record.check, rows, {
    recordId: record.id,
    ...(panel ? { panel } : {}),
  });
  const f = followBestOf(hub, view, record.id);
  view.update();
  let summaries;
  try {
    summaries = await resumeBestOf({
      candidates: record.candidates.map(resumedCandidate),
      ...(record.check ? { check: record.check } : {}),
      signal: f.signal,
      readThread: async (id) => (await hub.threads.readExisting(id)).records,
      onProgress: f.onProgress,
      // followed on where the host still runs it; else (the host stopped or restarted) its thread says how it ended
      follow: async (c, signal) =>
        (await stillHosted(hub, c.threadId))
          ? await followHostedCandidate(hub, view, c.spec.label, c.threadId, signal)
          : endedRun(c.threadId, (await hub.threads.readAsync(c.threadId))?.records ?? []),
    });
  } catch (err) {
    throw f.failed(err);
  }
  return { view, summaries: f.finish(summaries) };
}

async function stillHosted(hub: Hub, threadId: string): Promise<boolean> {
  await hub.hosted.link.check();
  return !!hub.hosted.link.session(threadId);
}
