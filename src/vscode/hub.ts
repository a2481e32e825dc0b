/**
 * The extension's one context object: owns every long-lived piece (log, config, live sessions, panels,
 * permission broker, terminal host, store, recall index, exec registry) through one DisposableStore, and wires
 * them together; starting an agent thread is hub-spawn.ts's.
 */
// eslint-disable-next-line no-restricted-syntax -- once per window start (below), not on an everyday path
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ExecRegistry } from "../core/exec";
import type { HostEvent } from "../core/host/protocol";
import { openExecRegistry } from "../core/exec/open-registry";
import { DisposableStore, toDisposable } from "../core/lifecycle";
import { homeLayout } from "../core/store/paths";
import { spawnInWorktree, spawnSession, type SpawnParams } from "./hub-spawn";
import { ThreadStore } from "../core/store/thread-store";
import { localEngine } from "../core/engine/local";
import type { Engine } from "../core/engine/requests";
import { background } from "../core/util/unexpected";
import { requiredAgent, type AgentChoice } from "./agents";
import { RegistryService } from "./registry/registry-service";
import { ComposerHost } from "./composer/composer-host";
import { Config } from "./config";
import { createRuntime, hostLauncher, newDoctorAnswers, PathAnswers } from "./engine";
import type { LiveSession, RuntimeFactory } from "./live-session";
import { LiveSessions } from "./live-sessions";
import { agentLogin } from "./login-view";
import { nodeRuntimeOptions, offerNodeInstall } from "./node-runtime";
import { ExtensionLog, protocolLineOf } from "./log";
import { noticeIgnoredWorkspaceSettings } from "./workspace-settings-notice";
import { PermissionBroker } from "./permission-broker";
import { ProposedContent } from "./proposed-content";
import { RecallIndex } from "./recall-index";
import { SessionsTree } from "./sessions-tree";
import { SharedSettings } from "./shared-settings";
import { AwayFiles } from "./away-files";
import { PseudoterminalHost } from "./terminal-host";
import { ThreadPanels } from "./thread-panels";
import { PastThreads } from "./past-threads";
import { scheduleTrafficCap } from "./clear-data";
import { ThreadOps } from "./thread-ops";
import { UsageStatus } from "./usage-status";
import { UsageView } from "./usage-view";
import { EditorWorkspaceFiles } from "./workspace-files";
import { fsServer, serveOffer } from "./host/serve-fs";
import { LedgerExecRecorder } from "../core/ledger/exec-recorder";
import { changedFilesOf } from "../core/ledger/summary";
import { LedgerFeature } from "./ledger/ledger-feature";
import { editorFiles } from "./ledger/ledger-host";
import { sendReviewPrompt } from "./ledger/review-send";
import { resolveThread, showTurn, threadsGone } from "./ledger/hub-wiring";
import { threadTitleOf } from "./thread-title";
import { WorktreeStates } from "./worktrees/states";
import type { Launcher } from "../core/platform/launcher";
import { HostedThreads } from "./host/hosted-threads";
import { wireHostedExecs } from "./host/hosted-exec";
import { BestOfRuns } from "./worktrees/best-of-runs";
import { writeTitle } from "./host/hosted-rename";
import { terminalOutputs } from "./host/terminal-outputs";
import { wireHostedThreads } from "./host/host-wiring";
import { WindowHost } from "./host/window-host";
import { continueInHost } from "./host/host-run";
import { continuing, goesToHost, promptInHost, startsInHost, startThreadInHost } from "./host/host-entry";

export type { SpawnParams } from "./hub-spawn";

/** This window as other clients and the records name it: "VS Code window (folder), pid N". */
function windowName(): string {
  const folder = vscode.workspace.name;
  return `VS Code window${folder ? ` (${folder})` : ""}, pid ${process.pid}`;
}

export class Hub implements vscode.Disposable {
  /** Everything the Hub owns; disposed in reverse order of creation. */
  readonly #owned = new DisposableStore();
  readonly log = this.#owned.add(new ExtensionLog());
  readonly config = new Config();
  readonly proposed = this.#owned.add(new ProposedContent());
  readonly broker = this.#owned.add(new PermissionBroker(this.proposed, windowName()));
  readonly live = this.#owned.add(new LiveSessions());
  /** The window's own sessions' elicitations, asked and answered (api/elicitation-events.ts), for its thread events. */
  readonly elicitations = this.#owned.add(new vscode.EventEmitter<HostEvent>());
  /** Threads the thread host runs (#35): `run --detach`, other windows; this window is a client of the host. */
  readonly hosted: HostedThreads;
  /** The window's own in-process thread host (#35 item 7): made on first use, stopped with the window. */
  readonly windowHost: WindowHost;
  readonly terminals = this.#owned.add(
    new PseudoterminalHost((sid) => this.live.bySessionId(sid)?.agent.displayName ?? "agent"),
  );
  readonly files = new EditorWorkspaceFiles();
  /** The canonical thread files (core). */
  readonly threads: ThreadStore;
  /** The engine's requests (core/engine/requests.ts), served in this window through its thread store. */
  readonly engine: Engine;
  /** Past threads as the sessions view and panels show them. */
  readonly past: PastThreads;
  readonly panels: ThreadPanels;
  readonly tree: SessionsTree;
  /** The hosted Best of N runs this window follows and their records (#35: a reload picks them up). */
  readonly bestOf: BestOfRuns;
  /** The state of the worktrees sessions work in (#25), read off the host's thread when a turn ends. */
  readonly worktrees = this.#owned.add(
    new WorktreeStates((threadId) => this.engine.call({ op: "worktree.state", threadId })),
  );
  readonly recall: RecallIndex;
  /** Checkpoints, review and provenance (#11): the edit ledger and its editor features. */
  readonly ledger: LedgerFeature;
  /** Watchdog, read-only followers and handoff links per thread (#13). */
  readonly ops: ThreadOps;
  readonly usageStatus: UsageStatus;
  readonly usageView: UsageView;
  /** The settings the CLI reads from the data home, written there from this window's configuration. */
  readonly shared: SharedSettings;
  /** The prompt box's host side: `@` suggestions, queued follow-ups, new-thread drafts. */
  readonly composer: ComposerHost;
  /** The ACP Registry: installed agents (listed like presets), installs, updates (#22). */
  readonly registry: RegistryService;
  /** Doctor's answers of the last seconds, for the new-thread panels' agent lists (engine.ts). */
  readonly doctorAnswers = newDoctorAnswers();
  /** Which agent commands are on PATH, of the last seconds: the same panels' quick lists (engine.ts). */
  readonly pathAnswers = new PathAnswers();
  readonly layout;
  /** Forks agents, terminals, exec runs and git calls (session facts, the edit ledger) off the host's thread: the spawner (#24). */
  readonly launcher: Launcher & { dispose(): void };
  #exec: ExecRegistry | undefined;
  runtimeFactory: RuntimeFactory = (opts, command) => {
    const node = nodeRuntimeOptions(this.config, this.home);
    // "no Node fits" comes from the runtime's start, where its launch is worked out off the thread
    return createRuntime(opts, protocolLineOf(opts.logger), node, this.launcher, command, (err) =>
      offerNodeInstall(err, this.engine, this.broker.notifier),
    );
  };

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly home: string,
  ) {
    this.layout = homeLayout(home);
    // Activation only, once per window start: the data home exists before the parts made below open files in it.
    mkdirSync(home, { recursive: true, mode: 0o700 });
    this.launcher = this.#owned.add(hostLauncher(context.extensionPath, this.log.logger));
    this.bestOf = this.#owned.add(new BestOfRuns(this.layout.bestOfFile, this.log.logger));
    const serve = { offer: serveOffer, answer: fsServer(this.files, serveOffer) };
    const link = { home, client: this.broker.window, logger: this.log.logger, serve };
    this.hosted = this.#owned.add(
      new HostedThreads(
        {
          ...link,
          script: join(context.extensionPath, "dist", "cli.js"),
          idleMinutes: () => this.config.hostIdleMinutes,
        },
        this.broker,
        context.workspaceState,
        // the window's own host (made on its first connection): its threads beside the socket host's
        { ...link, connect: (serves) => this.windowHost.connect(this.broker.window, serves) },
      ),
    );
    // the host's exec runs of this window's folders
    this.#owned.add(wireHostedExecs(this.hosted, this.live, (runId) => this.exec.info(runId)));
    const reoffer = () => background(this.hosted.reoffer(), "telling the thread hosts what this window serves");
    this.#owned.add(vscode.workspace.onDidChangeWorkspaceFolders(reoffer));
    this.#owned.add(vscode.workspace.onDidGrantWorkspaceTrust(reoffer));
    // its runs' targets through this window's engine (made below; the host is made on first use)
    this.windowHost = new WindowHost({
      home,
      engine: { call: (req, o) => this.engine.call(req, o) },
      logger: this.log.logger,
      protocolLogsDir: this.layout.protocolLogsDir,
      extensionPath: context.extensionPath,
    });
    // a turn's patches are fsynced on the thread pool: the host's thread never waits on the disk per turn
    this.threads = new ThreadStore(home, { logger: this.log.logger, durability: "soon" });
    // the ledger requests go through this window's live ledger (one writer) and its editor (a restore's writes)
    this.engine = localEngine({ store: this.threads, ledger: () => this.ledger.ledger, editor: editorFiles });
    this.past = this.#owned.add(
      new PastThreads(this.threads, this.log.logger, {
        catalogWorker: join(context.extensionPath, "dist", "catalog-worker.js"),
        engine: this.engine,
      }),
    );
    this.recall = this.#owned.add(new RecallIndex(context.extensionPath, home));
    this.ops = this.#owned.add(new ThreadOps(this));
    this.registry = this.#owned.add(
      new RegistryService(home, this.config, (registryUrl) => localEngine({ store: this.threads, registryUrl })),
    );
    this.composer = this.#owned.add(
      new ComposerHost({
        config: this.config,
        registry: this.registry,
        engine: this.engine,
        doctorAnswers: this.doctorAnswers,
        pathAnswers: this.pathAnswers,
        memento: context.globalState,
        threads: this.threads,
        pastThreads: async () =>
          (await this.past.list({ cwds: [], agent: undefined })).slice(0, 200).map((t) => ({
            threadId: t.threadId,
            title: t.title,
            agent: t.agent,
            updatedAt: t.updatedAt,
          })),
        files: (path) => this.files.readText(path),
        logger: this.log.logger,
        live: (id) => this.live.get(id),
        hosted: (id) => this.hosted.get(id),
        startInHost: ({ agentId, ...s }) => {
          if (!startsInHost(this, s.cwd, s.parts)) return undefined;
          return this.#agent(agentId).then(async (agent) => {
            await startThreadInHost(this, { ...s, agent });
            if (s.worktree) await this.worktrees.refresh();
          });
        },
        continueInHost: (id, parts) => continueInHost(continuing(this), id, parts),
        promptInHost: (id, parts) => promptInHost(this, id, parts),
        loginOf: (agentId) => agentLogin(this.live.all(), this.hosted.sessions, agentId),
        openThread: (id) => void this.panels.open(id, { preserveFocus: false }),
        closePanel: (id) => this.panels.get(id)?.dispose(),
        spawn: async (p) => {
          const { worktree, ...rest } = p;
          const params = { ...rest, agent: await this.#agent(p.agentId), task: "", showPanel: false };
          return worktree ? this.spawnInWorktree(params) : this.spawnSession(params);
        },
      }),
    );
    this.panels = this.#owned.add(
      new ThreadPanels({
        ops: this.ops,
        extensionUri: context.extensionUri,
        broker: this.broker,
        live: (id) => this.live.get(id),
        loadPast: (id) => this.past.load(id),
        ...terminalOutputs([this.terminals, this.hosted.terminals]),
        rename: async (id, title) => {
          await writeTitle(this, id, title);
          this.tree.refresh();
        },
        composer: this.composer,
        hosted: (id) => this.hosted.open(id),
        followTurnChanges: (post, id) => this.ledger.followTurnChanges(post, id),
      }),
    );
    this.ledger = this.#owned.add(
      new LedgerFeature({
        home,
        logger: this.log.logger,
        walkWorker: join(context.extensionPath, "dist", "walk-worker.js"),
        threads: this.threads,
        engine: this.engine,
        resolveThread: (arg) => resolveThread(this, arg),
        showTurn: (id, turn) => showTurn(this, id, turn),
        onThreadsChanged: this.past.onDidChange,
        threadsGone: (ids) => threadsGone(this, ids),
        titleOf: (id) =>
          threadTitleOf(id, {
            live: (t) => this.live.get(t),
            // the catalog's copy, no file read on the window's thread (not listed yet: the ledger reads it async)
            stored: (t) => this.past.metadata(t),
          }),
        sendReview: (id, comments, root, intro) =>
          sendReviewPrompt(
            {
              live: (t) => this.live.get(t),
              inHost: (t) => goesToHost(this, t),
              hostedCaps: (t) => this.hosted.get(t)?.sessionState?.promptCaps,
              composer: this.composer,
            },
            id,
            comments,
            root,
            intro,
          ),
      }),
    );
    this.broker.surface = this.panels;
    // a closed session that leaves memory: its open panel draws the stored thread (typing there resumes it)
    this.#owned.add(this.live.onDidLeave((id) => this.panels.refresh(id)));
    this.tree = this.#owned.add(
      new SessionsTree(
        this.live,
        (f) => this.past.list(f),
        this.ops,
        this.worktrees,
        context.workspaceState,
        this.hosted,
        (id) => this.past.metadata(id),
      ),
    );
    this.#owned.add(
      wireHostedThreads({
        home,
        threadsDir: this.threads.threadsDir,
        hosted: this.hosted,
        panel: (id) => this.panels.panelOf(id),
        runsHere: (id) => !!this.live.get(id)?.isOpen,
        refreshPanel: (id) => this.panels.refresh(id),
      }),
    );
    // "Since you left" lists the files each thread changed since then, from its edit ledger (async; #36)
    this.tree.awayFiles = new AwayFiles((t, since) => changedFilesOf(this.ledger.ledger, t, since));
    this.#owned.add(this.worktrees.onDidChange(() => this.tree.refresh()));
    this.#owned.add(this.ops.onDidChange(() => this.tree.refresh()));
    // a thread file changed (a session here closed, another window or the CLI wrote): the tree lists again
    this.#owned.add(this.past.onDidChange(() => this.tree.refresh()));
    // an agent installed or removed: open new-thread pickers and the tree list it at once
    this.#owned.add(
      this.registry.onDidChange(() => {
        this.doctorAnswers.clear(); // the versions doctor showed are of the agents as they were
        this.pathAnswers.clear();
        this.composer.refreshDrafts();
        this.tree.refresh();
      }),
    );
    this.usageStatus = this.#owned.add(
      new UsageStatus(this.live, {
        current: () => this.panels.lastActive(),
        onDidChange: this.panels.onDidChangeActive,
      }),
    );
    this.usageView = this.#owned.add(new UsageView(context.extensionUri, this.engine));
    this.#owned.add(
      this.broker.onDidChange((threadId) => this.live.get(threadId)?.setWaiting(this.broker.hasPending(threadId))),
    );
    // One exec TTL for the editor and the CLI: the setting is written into the data home, which both read.
    this.shared = this.#owned.add(new SharedSettings(home, this.config, (m, e) => this.log.logger.warn(m, e)));
    this.#owned.add(noticeIgnoredWorkspaceSettings(this.config, this.broker.notifier, (m) => this.log.logger.warn(m)));
    this.#owned.add(
      scheduleTrafficCap(
        this.engine,
        () => this.config.trafficMaxTotalMB,
        (m, e) => this.log.logger.warn(m, e),
      ),
    );
    const pruner = setInterval(() => this.pruneExecs(), 60_000);
    this.#owned.add(toDisposable(() => clearInterval(pruner)));
  }

  /**
   * The exec registry, opened on the first run; each run is recorded as an exec thread, and what it changes in
   * its folder goes into the thread's edit ledger (await `exec.prepare(cwd)` before `exec.start`).
   */
  get exec(): ExecRegistry {
    const logger = this.log.logger;
    this.#exec ??= this.#owned.add(
      openExecRegistry(this.home, {
        logger,
        ttlMs: () => this.shared.execTtlMs, // this window's setting, shared with the home (no read of the file)
        wrapRecorder: (threads) => new LedgerExecRecorder(this.ledger.ledger, threads, logger),
      }),
    );
    return this.#exec;
  }

  /** The configured agent `id` (the installed ones as the registry service keeps them). */
  async #agent(id: string): Promise<AgentChoice["spec"]> {
    return (await requiredAgent(this.config, this.registry, id)).spec;
  }

  /** Forgets the exec runs that ended longer ago than acpThreads.exec.ttlMinutes (every minute). */
  pruneExecs(): void {
    this.live.pruneExecs(this.shared.execTtlMs);
  }

  /**
   * Starts an agent thread, or resumes a stored one (which keeps its id: the live session, its panel and the
   * stored thread are one id). A thread already running in this window is shown, not started twice. Refuses
   * in an untrusted workspace (before anything is spawned).
   */
  spawnSession(p: SpawnParams): LiveSession {
    return spawnSession(this, p);
  }

  /** `spawnSession` in a new worktree of `p.cwd`'s repository (#25; a plain session outside git). */
  spawnInWorktree(p: SpawnParams): Promise<LiveSession> {
    return spawnInWorktree(this, p);
  }

  /** Stops what runs (exec process groups, agent sessions, recall workers) and waits for it; `dispose` frees the rest. */
  async shutdown(): Promise<void> {
    // before anything closes a compare view: its hosted candidates run on, a reloaded window picks them up
    this.bestOf.detachAll();
    await this.bestOf.settled();
    await this.#exec?.shutdown(true).catch((err) => this.log.logger.warn("stopping exec runs failed", err));
    await Promise.all(this.live.all().map((s) => s.close()));
    // the window's own host's runs interrupted, as its sessions are: their thread files say so
    await this.windowHost.stop().catch((err) => this.log.logger.warn("stopping the window's host failed", err));
    // every thread this window wrote durable and unlocked before the extension host exits
    await this.threads.closeAllAsync();
    await this.recall.close();
    // the closed sessions' folder trackers save their manifests off the thread: written before the host exits
    await this.ledger.ledger.flush();
  }

  dispose(): void {
    this.#owned.dispose();
  }
}
