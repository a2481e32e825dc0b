/**
 * The host side of the prompt box, one per window: `@` suggestions, sending (or queueing while a turn runs)
 * prompts with their context, chips that open what they name, files dropped on the box, thumbnails of images in
 * the transcript, and new threads that open as a panel with the agent picker before any agent is started.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { ContextItem, PromptPart } from "../../core/model/context";
import type { RuntimeEvent } from "../../core/model/events";
import type { ContextSources } from "../../core/prompt/blocks";
import { assetsDir, thumbnailsOf } from "../../core/prompt/images";
import { threadContextText } from "../../core/prompt/thread-text";
import { newThreadId } from "../../core/store/thread-id";
import type { ComposerMessage, WirePart } from "../../webview/thread/protocol";
import type { LiveSession } from "../live-session";
import { DraftAgents } from "./draft-agents";
import { droppedOn, wireItem } from "./dropped";
import { EditorContext } from "./editor-context";
import { resumeAndSend } from "./first-prompt";
import { WorkspaceFileIndex } from "./file-index";
import { suggestMentions } from "./mentions";
import { openContext } from "./open-context";
import { PromptQueues } from "./prompt-queue";
import { QueueDrain } from "./queue-drain";
import type { ComposerPanel } from "./composer-panel";
import { resendEdited } from "./resend";
import { sessionBoxState } from "./session-box";
import { steerQueued } from "./steer-queued";
import { startDraft, type DraftStartHost } from "./draft-start";
import { NewDrafts } from "./new-drafts";
import { SendParts } from "./send-parts";
import { background } from "../../core/util/unexpected";
import { HostedBox } from "../host/hosted-composer";
import type { ComposerDeps, ComposerLinks } from "./composer-deps";

export type { ComposerPanel } from "./composer-panel";

export class ComposerHost implements vscode.Disposable {
  readonly files = new WorkspaceFileIndex();
  readonly editor = new EditorContext();
  readonly queues = new PromptQueues();
  /** New threads whose panel is open but whose agent has not started yet. */
  readonly #drafts = new NewDrafts();
  /** A send's parts, a mentioned thread looked for off the host's thread; each thread's in the order they came. */
  readonly #parts: SendParts;
  /** Context for a prompt box whose panel is still opening. */
  readonly #pending = new Map<string, ContextItem[]>();
  readonly #drain = new QueueDrain({
    queues: this.queues,
    resolve: (wire) => this.#parts.resolve(wire),
    postQueue: (panel) => this.#postQueue(panel),
    run: (panel, live, wire, parts) => this.#run(panel, live, wire, parts),
  });
  /** Panels whose prompt box is attached now, by thread (the view id). */
  readonly #attached = new Map<string, ComposerPanel>();
  /** Each new thread's agent list and pick (issue #27: the user's pick wins, always). */
  readonly agents: DraftAgents;
  #links: ComposerLinks | undefined;
  /** Each panel's recall search for its latest `@` query: a newer one cancels it. */
  readonly #recalling = new Map<string, AbortController>();
  readonly #settings: vscode.Disposable;
  /** The box of the threads the thread host runs (#35). */
  readonly #hosted: HostedBox;

  constructor(private readonly deps: ComposerDeps) {
    this.agents = new DraftAgents(deps);
    this.#parts = new SendParts((id) => deps.threads.existsAsync(id));
    this.#hosted = new HostedBox({
      queues: this.queues,
      hosted: (id) => deps.hosted?.(id),
      continueInHost: async (id, parts) => !!(await deps.continueInHost?.(id, parts)),
      promptInHost: async (id, parts) => await deps.promptInHost?.(id, parts),
      sources: () => this.sources(),
      parts: (wire) => this.#parts.resolve(wire),
      postQueue: (panel) => this.#postQueue(panel),
      postThumbs: (panel, events) => this.#postThumbs(panel, panel.threadId, events),
    });
    // a setting changed in Settings (permission mode, agents, the demo profile): open new-thread panels follow
    this.#settings = deps.config.onDidChange(() => this.refreshDrafts());
  }

  connect(links: ComposerLinks): void {
    this.#links = links;
  }

  /** What `connect` gave (a host test puts its own recall in and this back). */
  get links(): ComposerLinks | undefined {
    return this.#links;
  }

  /**
   * Opens a new thread's panel: prompt box, agent picker, optional context already in the box. `bestOf`: the
   * panel of "Best of N…", its box checked (`cwd`: the repository the candidates branch from, else its folder).
   */
  openDraft(items: ContextItem[] = [], opts: { bestOf?: { cwd?: string } } = {}): string {
    const threadId = newThreadId(); // the stored thread will have the same id
    this.#drafts.open(threadId, opts.bestOf);
    if (items.length) this.#pending.set(threadId, items);
    this.deps.openThread(threadId);
    return threadId;
  }

  /** Puts context into a thread's prompt box (revealing its panel); returns the thread id. */
  insert(threadId: string, items: ContextItem[]): string {
    this.deps.openThread(threadId);
    const panel = this.#attached.get(threadId);
    if (panel) panel.post({ type: "insertContext", items: items.map(wireItem) });
    else this.#pending.set(threadId, [...(this.#pending.get(threadId) ?? []), ...items]);
    return threadId;
  }

  /** A new thread's panel (new-drafts.ts: a panel restored after a reload that names no thread becomes one again). */
  isDraft(threadId: string, folder?: string): Promise<boolean> {
    return this.#drafts.check(
      threadId,
      (id) => !!this.deps.live(id),
      (id) => this.deps.threads.existsAsync(id),
      folder,
    );
  }

  /** The init header of a new thread's panel: its folder, as its picker shows it. */
  draftHeader(threadId: string) {
    return this.#drafts.header(threadId);
  }

  /** Where context text comes from: open editors first (unsaved text), past threads from the store. */
  sources(): ContextSources {
    return {
      readText: this.deps.files,
      threadText: async (id) => {
        const read = await this.deps.threads.readAsync(id);
        return read && threadContextText(read.metadata, read.records);
      },
    };
  }

  /**
   * A panel (re)initialised: its composer state, thumbnails, and live updates. Disposed on the next init. `past`:
   * the events the panel shows (a stored thread's, a live one's transcript), for its images' thumbnails.
   */
  attach(panel: ComposerPanel, past?: readonly RuntimeEvent[]): vscode.Disposable {
    void this.files.ensure().catch((err) => this.deps.logger.warn("listing workspace files failed", err));
    this.#attached.set(panel.threadId, panel);
    const subs: vscode.Disposable[] = [
      { dispose: () => this.#attached.get(panel.threadId) === panel && this.#attached.delete(panel.threadId) },
    ];
    const flushPending = () => {
      const items = this.#pending.get(panel.threadId);
      this.#pending.delete(panel.threadId);
      if (items?.length) panel.post({ type: "insertContext", items: items.map(wireItem) });
    };
    const live = this.deps.live(panel.threadId);
    if (!live && this.#drafts.has(panel.threadId)) {
      this.#postDraft(panel);
      flushPending();
      return { dispose: () => subs.forEach((d) => d.dispose()) };
    }
    const hosted = live?.isOpen ? undefined : this.#hosted.attach(panel, past);
    if (hosted) {
      subs.push(...hosted);
      return { dispose: () => subs.forEach((d) => d.dispose()) };
    }
    if (!live) {
      if (past) this.#postThumbs(panel, panel.threadId, past);
      panel.post({ type: "composer", state: { draft: null } });
      return { dispose: () => subs.forEach((d) => d.dispose()) };
    }
    const postState = () =>
      panel.post({
        type: "composer",
        state: {
          ...sessionBoxState({
            promptCaps: live.promptCaps,
            agentName: live.agent.displayName,
            commands: live.commands,
            steerBlocked: live.steerBlocked,
          }),
          queue: this.queues.list(live.threadId),
        },
      });
    postState();
    flushPending();
    this.#postThumbs(panel, live.threadId, past ?? live.events); // past: the transcript the panel loaded
    subs.push(
      live.onStatus(() => postState()),
      live.onEvents((evs) => {
        if (evs.some((e) => e.type === "commands")) postState();
        this.#postThumbs(panel, live.threadId, evs);
      }),
    );
    return { dispose: () => subs.forEach((d) => d.dispose()) };
  }

  /** Sends the agent list again to every open new-thread panel (an agent was installed or removed). */
  refreshDrafts(): void {
    for (const panel of this.#attached.values()) if (this.#drafts.has(panel.threadId)) this.#postDraft(panel);
  }

  #postDraft(panel: ComposerPanel): void {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    this.agents.post(
      panel.threadId,
      (draft) =>
        panel.post({
          type: "composer",
          state: {
            draft: { ...draft, ...(this.#drafts.isBestOf(panel.threadId) ? { bestOf: true } : {}) },
            caps: null,
            queue: [],
          },
        }),
      () => this.#drafts.has(panel.threadId),
      folders,
      this.#drafts.folder(panel.threadId),
    );
  }

  /** Thumbnails of the images in these events (kept beside the stored thread), read off the host's thread. */
  #postThumbs(panel: ComposerPanel, storeId: string, events: readonly RuntimeEvent[]): void {
    const read = thumbnailsOf(assetsDir(this.deps.threads.threadsDir, storeId), events).then((thumbs) => {
      if (Object.keys(thumbs).length) panel.post({ type: "thumbs", thumbs });
    });
    background(read, "reading image thumbnails");
  }

  /**
   * The signal of a panel's recall search for its newest `@` query: the panel's search before it is cancelled (in the
   * engine worker: typing does not queue a search per key). Forgotten once cancelled.
   */
  #newerRecall(panel: ComposerPanel): AbortSignal {
    this.#recalling.get(panel.threadId)?.abort();
    const ac = new AbortController();
    this.#recalling.set(panel.threadId, ac);
    ac.signal.addEventListener("abort", () => {
      if (this.#recalling.get(panel.threadId) === ac) this.#recalling.delete(panel.threadId);
    });
    return ac.signal;
  }

  async handle(panel: ComposerPanel, m: ComposerMessage): Promise<void> {
    const notice = (message: string) => panel.post({ type: "composerNotice", message, severity: "error" });
    try {
      switch (m.type) {
        case "complete": {
          const signal = this.#newerRecall(panel);
          const recall = this.#links?.recall;
          return await suggestMentions(
            m.query,
            {
              files: this.files,
              editor: this.editor,
              threads: () => this.deps.pastThreads(),
              recall: recall ? (q) => recall(q, signal) : undefined,
              self: panel.threadId,
            },
            (items, done) => panel.post({ type: "completions", seq: m.seq, items, done }),
          );
        }
        case "send":
          return m.rewind ? await resendEdited(panel, m.parts, m.rewind, notice) : await this.#send(panel, m, notice);
        case "queueRemove":
        case "queueTake": {
          if (!(await this.#hosted.unqueue(panel, m.id))) return;
          const item = this.queues.take(panel.threadId, m.id);
          this.#postQueue(panel);
          if (item && m.type === "queueTake") panel.post({ type: "editPrompt", parts: item.parts });
          return;
        }
        case "queueSteer": {
          if (await this.#hosted.steer(panel, m.id)) return;
          return await steerQueued(this.deps.live(panel.threadId), m.id, {
            queues: this.queues,
            sources: () => this.sources(),
            threadExists: (id) => this.deps.threads.existsAsync(id),
            notice: (message, severity) => panel.post({ type: "composerNotice", message, severity }),
            postQueue: () => this.#postQueue(panel),
          });
        }
        case "openContext":
          return await openContext(m.ref, panel.threadId, {
            threadsDir: this.deps.threads.threadsDir,
            openThread: (id) => this.deps.openThread(id),
          });
        case "dropUris":
          return void (await droppedOn(panel, m.uris));
        case "pickAgent":
          return await this.agents.pick(panel.threadId, m.agentId);
        case "pickFolder": // a workspace folder only: the header then names it
          if (this.#drafts.pick(panel.threadId, m.folder)) panel.post({ type: "draftFolder", cwd: m.folder });
          return;
        case "addAgent":
          return void (await vscode.commands.executeCommand("acpThreads.addAgent"));
        case "agentActions":
          return void (await this.#links?.agentActions?.(m.agentId));
      }
    } catch (err) {
      notice(errorMessage(err));
    }
  }

  /**
   * Sends a prompt made outside the box (a review's comments) as the thread's next prompt, or queues it behind
   * the running turn like a typed follow-up. Rejects (nothing sent) when the agent cannot take it.
   */
  async submit(threadId: string, wire: WirePart[]): Promise<"sent" | "queued"> {
    const live = this.deps.live(threadId);
    const parts = await this.#parts.inOrder(threadId, wire);
    // a thread the thread host holds, or whose next run belongs there (host-entry.ts)
    const inHost = live?.isOpen ? undefined : await this.deps.promptInHost?.(threadId, parts);
    if (inHost) return inHost;
    if (!live?.isOpen)
      throw new Error("This thread is not running anymore; resume it from the Sessions view to continue.");
    const panel = this.#attached.get(threadId) ?? { threadId, post: () => undefined };
    if (live.busy || this.queues.list(threadId).length) {
      this.queues.add(threadId, wire);
      this.#postQueue(panel);
      this.#drain.whenIdle(panel, live);
      return "queued";
    }
    const built = await live.preparePrompt(parts, this.sources());
    background(live.promptBuilt(built), "sending a prompt", (err) =>
      panel.post({ type: "composerNotice", message: errorMessage(err), severity: "error" }),
    );
    return "sent";
  }

  /** What starting a new thread's panel needs from here. */
  #draftHost(panel: ComposerPanel, m: { parts: WirePart[] }, parts: PromptPart[]): DraftStartHost {
    return {
      links: this.#links,
      agents: this.agents,
      sources: () => this.sources(),
      spawn: (p) => this.deps.spawn(p),
      closePanel: (id) => this.deps.closePanel(id),
      setDraft: (id, draft) => {
        if (draft) this.#drafts.add(id);
        else this.#drafts.end(id);
      },
      bestOfCwd: (id) => this.#drafts.bestOfCwd(id),
      run: (live) => this.#run(panel, live, m.parts, parts),
      startInHost: (s) => this.deps.startInHost?.(s),
    };
  }

  #postQueue(panel: ComposerPanel): void {
    panel = this.#attached.get(panel.threadId) ?? panel; // the panel may have opened since
    panel.post({ type: "composer", state: { queue: this.queues.list(panel.threadId) } });
  }

  async #send(panel: ComposerPanel, m: Extract<ComposerMessage, { type: "send" }>, notice: (s: string) => void) {
    const restore = () => panel.post({ type: "editPrompt", parts: m.parts });
    let parts: PromptPart[];
    try {
      parts = await this.#parts.inOrder(panel.threadId, m.parts);
    } catch (err) {
      restore();
      return notice(errorMessage(err));
    }
    if (this.#drafts.has(panel.threadId)) {
      const folder = m.folder ?? this.#drafts.folder(panel.threadId); // a scripted Send may name none
      return await startDraft(this.#draftHost(panel, m, parts), panel, { ...m, folder }, parts, restore, notice);
    }
    const live = this.deps.live(panel.threadId);
    if (await this.#hosted.send(panel, m.parts, parts, !!live?.isOpen, restore, notice)) return;
    if (!live?.isOpen) {
      const resume = (await this.deps.threads.existsAsync(panel.threadId)) ? this.#links?.resume : undefined;
      return await resumeAndSend(panel.threadId, resume, (l) => this.#run(panel, l, m.parts, parts), restore, notice);
    }
    if (live.busy || this.queues.list(live.threadId).length) {
      this.queues.add(live.threadId, m.parts);
      this.#postQueue(panel);
      return this.#drain.whenIdle(panel, live);
    }
    await this.#run(panel, live, m.parts, parts);
  }

  /**
   * Sends one prompt and resolves once the turn started; a prompt the agent cannot take (an image it refuses)
   * comes back into the box with the reason.
   */
  async #run(panel: ComposerPanel, live: LiveSession, wire: WirePart[], parts: PromptPart[]): Promise<void> {
    const notice = (err: unknown) =>
      panel.post({ type: "composerNotice", message: errorMessage(err), severity: "error" });
    let built;
    try {
      built = await live.preparePrompt(parts, this.sources());
    } catch (err) {
      panel.post({ type: "editPrompt", parts: wire });
      return notice(err);
    }
    void live.promptBuilt(built).catch(notice);
  }

  dispose(): void {
    this.#settings.dispose();
    this.files.dispose();
    this.editor.dispose();
  }
}
