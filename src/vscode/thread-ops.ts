/**
 * The editor side of issue #13 for each thread: the watchdog and retry ladder of live sessions (attached when a
 * session's thread starts, settings `acpThreads.watchdog.*`), the read-only view of a thread another window or
 * process writes (followed live, taken over once free), and the handoff links. Feeds the panel's ops strip
 * (`OpsView`) and the sessions tree, and carries out the strip's actions.
 */
import * as vscode from "vscode";
import { forkedFrom, handedOffFrom } from "../core/handoff/lineage";
import type { ThreadMetadata } from "../core/model/metadata";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError } from "../core/errors";
import { recordsToEvents } from "../core/thread/record-events";
import type { SupervisorState } from "../core/model/watchdog";
import type { HostMessage, OpsAction, OpsLink, OpsView } from "../webview/thread/protocol";
import type { Engine, EngineProgress } from "../core/engine/requests";
import type { ThreadWriter } from "../core/engine/requests-sessions";
import type { ThreadStore } from "../core/store/thread-store";
import type { Config } from "./config";
import type { LiveSession } from "./live-session";
import type { LiveSessions } from "./live-sessions";
import type { HandoffSummary } from "./session-ops-look";
import { HostedWatch, type HostedWatchSource } from "./host/hosted-watch";
import { background } from "../core/util/unexpected";
import { newestShown } from "./newest-shown";

/** How often a panel of a thread this window does not write looks at its file and lock. */
const FOLLOW_POLL_MS = 1000;

/** What ThreadOps needs of the hub. */
export interface ThreadOpsDeps {
  live: LiveSessions;
  threads: ThreadStore;
  /** The window's engine: who writes a thread (`threads.writer`), following it (`threads.follow`). */
  engine: Engine;
  config: Config;
  panels: { open(threadId: string): unknown; get(threadId: string): vscode.WebviewPanel | undefined };
  tree: { refresh(): void };
  past: { metadata(threadId: string): ThreadMetadata | undefined };
  /** The threads the thread host runs: their watchdogs (host-watch.ts). */
  hosted?: HostedWatchSource;
}

/** A follow's end when the panel closed meanwhile or the thread was deleted (nothing more to follow); else its error. */
const endedBy = (signal: AbortSignal) => (err: unknown) => {
  if (signal.aborted || (err instanceof AcpThreadsError && err.code === "not_found")) return undefined;
  throw err;
};

/** A stored thread a panel here follows: its writer as the engine last pushed it (none: nobody writes it now). */
interface Following {
  holder: ThreadWriter | undefined;
  readonly stop: AbortController;
}

export class ThreadOps implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<string>();
  /** Fires with a panel/live thread id whose ops view changed (the tree refreshes too). */
  readonly onDidChange = this.#changed.event;
  readonly #followers = new Map<string, Following>();
  readonly #hosted: HostedWatch | undefined;

  constructor(private readonly hub: ThreadOpsDeps) {
    this.#hosted = hub.hosted && new HostedWatch(hub.hosted, (id) => this.#changed.fire(id));
  }

  /** Follows the watchdog of a session whose thread just opened (its state shows in the tree and the panel). */
  watch(session: LiveSession): void {
    session.supervisor?.onState(() => this.#changed.fire(session.threadId));
  }

  /** The watchdog state of a live session, for the tree. */
  stateOf(session: LiveSession): SupervisorState | undefined {
    return session.supervisor?.state;
  }

  /**
   * The handoff links of a live session's thread, for the tree: its writer's metadata while open (kept current by
   * patches); once closed, the stored metadata, from the thread catalog, else read once off the host's thread (the
   * tree and the panel are told when it arrives with links to show; read again after `refresh`).
   */
  handoffOf(session: LiveSession): HandoffSummary | undefined {
    const id = session.threadId;
    const open = session.isOpen ? session.thread?.metadata : undefined;
    const m = open ?? (id ? this.#closedMetaOf(id) : undefined);
    return m ? { from: handedOffFrom(m) ?? undefined, to: m.handedOffTo ?? [] } : undefined;
  }

  readonly #closedMeta = new Map<string, Pick<ThreadMetadata, "origin" | "handedOffTo">>();
  /** Closed sessions' threads being read for `handoffOf`: one read each at a time, forgotten by `refresh`. */
  readonly #reading = new Map<string, object>();

  #closedMetaOf(id: string): Pick<ThreadMetadata, "origin" | "handedOffTo"> | undefined {
    const known = this.hub.past.metadata(id) ?? this.#closedMeta.get(id);
    if (known || this.#reading.has(id)) return known;
    const token = {};
    this.#reading.set(id, token);
    // a read that began before a `refresh` may miss what changed: its answer is not kept
    const current = () => this.#reading.get(id) === token && this.#reading.delete(id);
    const read = this.hub.threads.readAsync(id).then((r) => {
      if (!current() || !r) return; // else deleted since
      this.#closedMeta.set(id, r.metadata);
      // a row is drawn again only when it gains links: a refresh that changes nothing would close its open tooltip
      if (handedOffFrom(r.metadata) || r.metadata.handedOffTo?.length) this.#changed.fire(id);
    });
    // unreadable: no links, as when it is gone
    background(read, "reading a closed session's thread", () => current());
    return undefined;
  }

  /**
   * What the panel of `threadId` (a live session's view id or a stored thread id) shows in its ops strip. The file
   * is looked at off the host's thread first; the state kept in memory is taken after, as it is then.
   */
  async view(threadId: string): Promise<OpsView> {
    const stored = await this.hub.threads.existsAsync(threadId);
    const links = stored ? await this.#links(threadId) : [];
    const live = this.hub.live.get(threadId);
    const hosted = live ? undefined : this.#hosted?.of(threadId);
    const st = live?.supervisor?.state ?? hosted;
    const follower = this.#followers.get(threadId);
    const holder = follower?.holder;
    return {
      alert: st?.alert
        ? { kind: st.alert.kind, message: st.alert.message, detail: st.alert.detail, at: st.alert.at }
        : null,
      next: st?.next ?? null,
      running: st?.running ?? null,
      exhausted: st?.exhausted ?? false,
      history: st?.history.map((h) => ({ step: h.step, outcome: h.outcome })) ?? [],
      auto: live ? live.supervisor?.mode === "auto" : !!hosted?.auto || !!this.#hosted?.autoRetry(threadId),
      holder: holder
        ? {
            label: holder.label,
            pid: holder.pid,
            since: holder.since,
            host: holder.host !== hostname() ? holder.host : null,
          }
        : null,
      canTakeOver: !!follower && !holder && this.#released.has(threadId),
      links,
      stored,
      // a thread a host runs is stopped as a window session is (Stop session: the host stops its run)
      live: !!live?.isOpen || !!this.#hosted?.holds(threadId),
    };
  }

  /**
   * Keeps a panel's ops strip current; for a stored thread that another window or process writes, also streams
   * its new records into the panel (read-only) until it is free. Returns what to dispose with the panel.
   * `viaHost`: the thread host writes it and the panel follows it through the host (its records come from there,
   * and the host's lock is no other writer to show): the strip only. `readTo`: where the records the panel drew end
   * in the thread's file; the first follow goes on from there, so a record written between the panel's read and
   * the follow's start is not lost.
   */
  attach(threadId: string, post: (m: HostMessage) => void, viaHost = false, readTo?: number): vscode.Disposable {
    let disposed = false;
    // each change asks for a view; one that comes back after a newer one was shown is dropped
    const show = newestShown<OpsView>((ops) => {
      if (!disposed) post({ type: "ops", ops });
    });
    const send = () => background(show(this.view(threadId)), "showing a thread's ops strip");
    const subs: vscode.Disposable[] = [this.onDidChange((id) => id === threadId && send())];
    let follower: Following | undefined;
    // While a session of it is open here, this window writes it; otherwise (past, or closed here) another window
    // or process may write it at any time: follow the file and its lock (polled once a second, by the engine).
    const mayFollow = () => !disposed && !viaHost && !follower && !this.hub.live.get(threadId)?.isOpen;
    const follow = async () => {
      if (!mayFollow() || !(await this.hub.threads.existsAsync(threadId)) || !mayFollow()) return; // again: after the look
      const f: Following = { holder: undefined, stop: new AbortController() };
      follower = f;
      this.#followers.set(threadId, f);
      // only the first follow goes on from the panel's read: a later one follows a session this window closed
      const from = readTo;
      readTo = undefined;
      background(this.#follow(threadId, f, post, send, from), "following a thread");
    };
    const startFollowing = () => background(follow(), "following a thread");
    const live = this.hub.live.get(threadId);
    if (live?.isOpen) subs.push(live.onStatus(() => (startFollowing(), send())));
    startFollowing();
    subs.push({
      dispose: () => {
        disposed = true;
        if (follower && this.#followers.get(threadId) === follower) this.#followers.delete(threadId);
        this.#released.delete(threadId);
        follower?.stop.abort();
      },
    });
    send();
    return vscode.Disposable.from(...subs);
  }

  /**
   * Follows a stored thread through the window's engine (`threads.follow`: in this process, asynchronous reads
   * only) until the panel closes: its new records go to the panel, its writer to the ops strip. The engine replies
   * once nobody holds the thread; another writer may take it at any time, so it is followed again a poll later,
   * from where the last follow ended. `from`: where the first follow starts (default: the file's end).
   */
  async #follow(
    threadId: string,
    f: Following,
    post: (m: HostMessage) => void,
    send: () => void,
    from?: number,
  ): Promise<void> {
    const { signal } = f.stop;
    const changed = () => {
      send();
      this.hub.tree.refresh();
    };
    const onProgress = (p: EngineProgress) => {
      if (p.t === "records") post({ type: "events", events: recordsToEvents(p.records) });
      if (p.t !== "holder") return;
      f.holder = p.holder;
      changed();
    };
    let fromOffset = from; // undefined: the first follow starts at the file's end
    for (;;) {
      const at = fromOffset !== undefined ? { fromOffset } : {};
      const r = await this.hub.engine
        .call({ op: "threads.follow", threadId, pollMs: FOLLOW_POLL_MS, ...at }, { signal, onProgress })
        .catch(endedBy(signal));
      if (!r?.free) return;
      fromOffset = r.offset;
      if (f.holder) {
        f.holder = undefined;
        this.#released.add(threadId);
        changed();
        if (this.#pendingTakeOver.delete(threadId)) background(this.takeOver(threadId), "taking over the thread");
      }
      if (
        await sleep(FOLLOW_POLL_MS, undefined, { signal }).then(
          () => false,
          () => true,
        )
      )
        return;
    }
  }

  /** Threads whose other writer let go while a panel here followed them (the panel offers Take over). */
  readonly #released = new Set<string>();

  readonly #pendingTakeOver = new Set<string>();

  /** The thread is held elsewhere: open it read-only now and take it over as soon as it is free. */
  resumeWhenFree(threadId: string): void {
    this.#pendingTakeOver.add(threadId);
    this.hub.panels.open(threadId);
  }

  /** Whether another process holds the stored thread (so Resume must wait): the engine says who writes it. */
  async heldElsewhere(threadId: string): Promise<boolean> {
    const h = this.#followers.get(threadId)?.holder ?? (await this.hub.engine.call({ op: "threads.writer", threadId }));
    return !!h && !(h.pid === process.pid && h.host === hostname());
  }

  /** Resumes a stored thread in this window (its panel turns live: one id for both). */
  async takeOver(threadId: string): Promise<void> {
    await vscode.commands.executeCommand("acpThreads.resume", threadId);
  }

  async handle(threadId: string, a: OpsAction): Promise<void> {
    const live = this.hub.live.get(threadId);
    switch (a.action) {
      case "retry":
        if (!live && this.#hosted?.of(threadId)) return await this.#hosted.retry(threadId, a.step);
        return await live?.supervisor?.retry(a.step);
      case "dismiss":
        if (!live && this.#hosted?.of(threadId)) return await this.#hosted.retry(threadId, undefined, true);
        live?.supervisor?.dismiss();
        return;
      case "takeOver":
        return await this.takeOver(threadId);
      case "handoff":
        return void (await vscode.commands.executeCommand("acpThreads.handoff", threadId));
      case "saveBundle":
        return void (await vscode.commands.executeCommand("acpThreads.saveBugBundle", threadId));
      case "exportMarkdown":
        return void (await vscode.commands.executeCommand("acpThreads.exportMarkdown", threadId));
      case "stop":
        return void (await vscode.commands.executeCommand("acpThreads.stopSession", threadId));
      case "openThread":
        return void (await vscode.commands.executeCommand("acpThreads.openThread", a.threadId));
    }
  }

  /** Tells the ops strips and the tree that a thread's metadata (links) changed. */
  refresh(threadId: string): void {
    this.#closedMeta.delete(threadId);
    this.#reading.delete(threadId);
    this.#changed.fire(threadId);
  }

  async #links(storeId: string): Promise<OpsLink[]> {
    const meta = await this.#meta(storeId);
    if (!meta) return [];
    const link = async (relation: OpsLink["relation"], id: string, at?: number): Promise<OpsLink[]> => {
      const m = await this.#meta(id);
      const title = m?.title ?? "(untitled)";
      return m ? [{ relation, threadId: id, title, agent: m.agent.name, ...(at !== undefined ? { at } : {}) }] : []; // else deleted since
    };
    const from = handedOffFrom(meta);
    const source = forkedFrom(meta);
    const links = await Promise.all([
      ...(from ? [link("from", from)] : []),
      ...(meta.handedOffTo ?? []).map((id) => link("to", id)),
      ...(source ? [link("forkedFrom", source.threadId, source.messageIndex)] : []),
      ...(meta.forks ?? []).map((id) => link("fork", id)),
    ]);
    return links.flat();
  }

  /**
   * A thread's metadata without reading its file on every status change: the writer's own while a session of it
   * is open here, else the thread catalog's (kept current by the store's events and its folder watcher); the file,
   * off the host's thread, only for a thread the catalog has not listed yet.
   */
  async #meta(id: string): Promise<ThreadMetadata | undefined> {
    const live = this.hub.live.get(id);
    const own = live?.isOpen ? live.thread?.metadata : undefined;
    if (own) return own;
    const known = this.hub.past.metadata(id);
    if (known) return known;
    return (await this.hub.threads.readAsync(id).catch(() => undefined))?.metadata;
  }

  dispose(): void {
    this.#hosted?.dispose();
    for (const f of this.#followers.values()) f.stop.abort();
    this.#followers.clear();
    this.#changed.dispose();
  }
}
