/**
 * A hosted Best of N picked up again (#35): after "Developer: Reload Window" VS Code restores its compare view (the
 * webview saved its record's id) and hands it here; a second window on the same folder, or a reloaded window whose
 * view was not restored, finds the records still open (not applied or discarded, not closed by the user) whose
 * window is gone, and reopens their view. Either way the view shows each candidate again, follows the ones the
 * host still runs from where they are, runs the checks that did not run to their end, and ranks them; Apply and
 * Discard work as before. One window follows a record at a time: the record names its window's process. A window
 * already open picks up the same way a record another process made or let go of (best-of-watch.ts: a Best of N
 * started from a terminal with `--detach`), its view hidden until the user opens it from a notification. A record
 * the live thread host owns (a detached Best of N it finishes, #35) is shown, never claimed: its view follows the
 * record as the host writes it (no check runs here), and once the host lets it go ranked the window takes it over
 * from the record (running nothing) for Apply and Discard; a host that died leaves it to be picked up as before.
 */
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { repositoryOfFolders } from "../../core/host/run-roots";
import { endedRun, followRecord, resumeBestOf, type BestOfProgress } from "../../core/worktree/best-of";
import {
  hostOwned,
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
  // (one the thread host owns is shown at once: the host's process stays)
  const waits = (r: BestOfRecord) => !ownerGone(r.owner) && !ownedHere(r.owner) && !hostOwned(r);
  while (record && waits(record) && Date.now() < deadline) await sleep(250);
  const out = record ? await resumeRecord(hub, record, { panel }) : undefined;
  if (!out) panel.dispose();
  return out;
}

/**
 * Picks up the open Best of N runs of this window's folders that no live process follows: at activation (`live`
 * false) each in its compare view; while the window is open (a record another process made or let go of, found by
 * best-of-watch.ts) with a notification whose Open shows the view, so the user's focus stays where it is. Resolves
 * with the records being picked up (each its result) and the open records that another live process of this machine
 * follows (a terminal's command, another window): picked up once it is gone.
 */
export async function resumeOpenBestOf(hub: Hub, live = false): Promise<OpenBestOf> {
  const out: OpenBestOf = { picking: new Map(), followed: [] };
  if (!vscode.workspace.isTrusted) return out; // its checks are commands run in the worktrees
  const records = await hub.bestOf.store.list().catch(unreadable);
  for (const r of records ?? []) {
    if (!isOpen(r) || hub.bestOf.follows(r.id)) continue;
    if (ownerGone(r.owner) || hostOwned(r)) {
      const result = resumeRecord(hub, r, { live });
      background(result, "reopening a Best of N");
      out.picking.set(r.id, result);
    } else if (r.owner?.host === hostname() && !ownedHere(r.owner)) out.followed.push(r);
  }
  return out;
}

export interface OpenBestOf {
  /** Record id → its Best of N picked up here (undefined: not here, another window or process was first). */
  picking: Map<string, Promise<BestOfResult | undefined>>;
  followed: BestOfRecord[];
}

/** Whether the process that followed one of these records is gone (it is then picked up: `resumeOpenBestOf`). */
export const followerGone = (records: readonly BestOfRecord[]): boolean => records.some((r) => ownerGone(r.owner));

/** How a Best of N is picked up: in a panel VS Code restored, or (`live`) its view hidden until the user asks. */
export interface ResumeHow {
  panel?: vscode.WebviewPanel;
  live?: boolean;
}

/**
 * Picks the record's Best of N up in a compare view; resolves with its ranked summaries, or undefined when another
 * window (or this one already) follows it, it is closed, or its repository is not of this window's folders.
 */
export async function resumeRecord(
  hub: Hub,
  record: BestOfRecord,
  how: ResumeHow = {},
): Promise<BestOfResult | undefined> {
  // only a repository of this window's folders (its checks run in that repository's worktrees)
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  if (!(await repositoryOfFolders(record.repo, folders)) || !hub.bestOf.reserve(record.id)) return undefined;
  let view: CompareView | undefined;
  if (hostOwned(record)) {
    view = viewOf(hub, record, how);
    const shown = await showHosted(hub, view, record);
    if (!shown) {
      hub.bestOf.forget(record.id);
      return undefined;
    }
    record = shown;
  }
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
  if (!claimed) return void view?.dispose();
  view ??= viewOf(hub, record, how);
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

/** The record's compare view (hidden, and the user told, when picked up while the user works). */
function viewOf(hub: Hub, record: BestOfRecord, how: ResumeHow): CompareView {
  const rows = record.candidates.map((c) => ({
    ...rowOf(c),
    threadId: c.threadId,
    ...(c.outcome ? { outcome: c.outcome } : {}),
  }));
  const view = new CompareView(hub, record.prompt, record.check, rows, {
    recordId: record.id,
    ...(how.panel ? { panel: how.panel } : {}),
    ...(how.live ? { hidden: true } : {}),
  });
  if (how.live) background(announce(hub, record, view), "telling of a Best of N picked up");
  return view;
}

/**
 * A record the thread host finishes, shown as the host records it until the host lets it go (resolves with the
 * record then) or the user closes the view (undefined: the record is closed, as closing a view closes it).
 */
async function showHosted(hub: Hub, view: CompareView, record: BestOfRecord): Promise<BestOfRecord | undefined> {
  for (const c of record.candidates) {
    const row = view.row(c.label);
    if (row && c.threadId && !c.agent) row.status = "working"; // its agent runs in the host
  }
  view.update();
  const closed = new AbortController();
  const sub = view.onDidClose(() => closed.abort());
  try {
    const last = await followRecord(hub.bestOf.store, record, {
      signal: closed.signal,
      onProgress: (e) => hostedProgress(view, e),
    });
    if (!closed.signal.aborted) return last;
    hub.bestOf.write(record.id, (r) => void (r.closedAt = new Date().toISOString()));
    return undefined;
  } finally {
    sub.dispose();
  }
}

/** The host's progress (read from the record) on the view's cards; the ranking comes once the host lets it go. */
function hostedProgress(view: CompareView, e: BestOfProgress): void {
  const row = e.type === "finished" ? undefined : view.row(e.spec.label);
  if (!row) return;
  if (e.type === "agent_done") {
    Object.assign(row, { status: e.run.ok ? "done" : "failed", durationMs: Math.round(e.durationMs) });
    if (e.run.error) row.error = e.run.error;
  } else if (e.type === "check_started") row.status = "checking";
  else if (e.type === "check_done") {
    const { command, exitCode, timedOut, outputTail } = e.check;
    row.check = { command, exitCode, ...(timedOut ? { timedOut } : {}), outputTail };
    if (row.status === "checking") row.status = "done";
  }
  view.update();
}

/** A Best of N picked up while the user works: told, its view opened on Open. */
async function announce(hub: Hub, record: BestOfRecord, view: CompareView): Promise<void> {
  const n = record.candidates.length;
  const from = record.startedFrom === "terminal" ? "started from a terminal" : "that no window followed";
  const pick = await hub.broker.notifier.show("info", `Best of N ${from}: ${n} candidate${n === 1 ? "" : "s"}`, "Open");
  if (pick === "Open" && !view.show())
    void vscode.window.showInformationMessage("ACP Threads: that Best of N's compare view was closed.");
}

async function stillHosted(hub: Hub, threadId: string): Promise<boolean> {
  const link = hub.hosted.linkOf(threadId);
  await link.check();
  return !!link.session(threadId);
}
