/**
 * The edit ledger service of one process (extension host or CLI): the blob store, one workspace tracker per
 * folder shared by every session in it, the turn captures, and the conflict radar. Thread sessions call
 * `openSession` when they start (the folder's baseline is built while the agent starts) and `beginTurn` /
 * `TurnCapture.end` around each turn; exec runs do the same through `LedgerExecRecorder`.
 *
 * Layout under the data home: `ledger/<threadId>.jsonl` (canonical, append-only), `ledger/blobs/` (content by
 * id, shared), `ledger/manifests/` (derived cache of plain folders' baselines).
 */
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../errors";
import { Emitter, toDisposable, type Disposable } from "../lifecycle";
import { nullLogger, type Logger } from "../log";
import { homeLayout } from "../platform/data-home";
import { isThreadId } from "../model/thread-id";
import type { FileWrite } from "../acp/runtime";
import { BlobStore } from "./blob-store";
import type { LedgerLimits } from "./content";
import { appendLedger, readLedger, readLedgerAsync, type LedgerRead } from "./ledger-file";
import { foldLedger, type LedgerView, type OpView } from "./ledger-view";
import type { LedgerInput } from "./records";
import { WorkspaceTracker, type FileDelta } from "./tracker";
import { TurnCapture, type CaptureHost, type TurnInfo } from "./turn-capture";
import { WalkWorker } from "./walk-worker-client";
import { background } from "../util/unexpected";

export interface EditLedgerOptions {
  /** The data home (`resolveHome()`); the ledger lives in `<home>/ledger`. */
  home: string;
  logger?: Logger;
  limits?: Partial<LedgerLimits>;
  /**
   * Watch directories (default true); false = stat walks at turn boundaries. A number: at most that many watches
   * per workspace (tests and the bench: the OS's inotify limit, simulated).
   */
  watch?: boolean | number;
  /**
   * The walk worker's script: stat walks (no watches) then run off this thread. Default: dist/walk-worker.js next
   * to the running bundle (dist/ or dist/cli/: the editor and the CLI); false, or no such file (a test bundle):
   * they run here, asynchronously.
   */
  walkWorker?: string | false;
  /** The threads that may stat a walk's files in the walk worker (default: the machine's cores; stat-pool.ts). */
  walkStatThreads?: number;
  /**
   * Whether a turn's first stat walk may run while the turn already works (default true; tracker.ts `turnStamp`).
   * false: it runs before the turn starts (the bench's baseline: the design before).
   */
  overlapTurnStart?: boolean;
}

export interface LedgerRecorded {
  threadId: string;
  op: OpView;
}

export interface ConflictNotice {
  /** `two_sessions`: another live session changed the same file; `stale_write`: an agent replaced text it had not read. */
  kind: "two_sessions" | "stale_write" | "shared_turns";
  threadId: string;
  path: string;
  otherThreadIds: string[];
  message: string;
}

interface Slot {
  root: string;
  tracker: Promise<WorkspaceTracker | undefined>;
  refs: number;
  open: Set<TurnCapture>;
}

export class EditLedger implements Disposable {
  readonly dir: string;
  readonly blobs: BlobStore;
  readonly #opts: EditLedgerOptions;
  readonly #logger: Logger;
  readonly #slots = new Map<string, Slot>();
  /** Live sessions: thread id → files its turns changed (the conflict radar's memory). */
  readonly #live = new Map<string, { agent: string; touched: Set<string> }>();
  readonly #recorded = new Emitter<LedgerRecorded>();
  readonly #conflicts = new Emitter<ConflictNotice>();
  readonly #ending = new Set<Promise<unknown>>();
  readonly #walker: WalkWorker | undefined;
  readonly onDidRecord = this.#recorded.event;
  readonly onConflict = this.#conflicts.event;
  #disposed = false;

  constructor(opts: EditLedgerOptions) {
    this.#opts = opts;
    this.#logger = opts.logger ?? nullLogger;
    const layout = homeLayout(opts.home);
    this.dir = layout.ledgerDir;
    this.blobs = new BlobStore(layout.ledgerBlobsDir);
    const walkWorker = opts.walkWorker ?? defaultWalkWorker();
    const walkOpts = opts.walkStatThreads !== undefined ? { statThreads: opts.walkStatThreads } : {};
    this.#walker = walkWorker ? new WalkWorker(walkWorker, this.#logger, walkOpts) : undefined;
  }

  pathOf(threadId: string): string {
    if (!isThreadId(threadId)) throw new Error(`'${threadId}' is not a thread id`);
    return join(this.dir, `${threadId}.jsonl`);
  }

  /** The thread's ledger, folded (derived: read from the file each time). */
  read(threadId: string): LedgerView {
    return this.#fold(threadId, readLedger(this.pathOf(threadId)));
  }

  /** `read` without a synchronous file call (each turn's end). */
  async readAsync(threadId: string): Promise<LedgerView> {
    return this.#fold(threadId, await readLedgerAsync(this.pathOf(threadId)));
  }

  #fold(threadId: string, { records, warnings }: LedgerRead): LedgerView {
    for (const w of warnings) this.#logger.warn(`ledger ${threadId} @${w.offset}: ${w.message}`);
    return foldLedger(records, warnings);
  }

  append(threadId: string, inputs: LedgerInput[]): Promise<void> {
    return appendLedger(this.pathOf(threadId), inputs, this.#logger).then(() => undefined);
  }

  /** A session starts in `cwd`: the folder's baseline is built now (shared); dispose when the session ends. */
  openSession(threadId: string, cwd: string, agent = ""): Disposable {
    const slot = this.#acquire(cwd);
    this.#live.set(threadId, { agent, touched: this.#live.get(threadId)?.touched ?? new Set() });
    return toDisposable(() => {
      this.#live.delete(threadId);
      const released = slot.then((s) => this.#release(s));
      background(released, "releasing a folder tracker");
      this.track(released); // `flush` right after waits for the tracker's close
    });
  }

  /** Builds the folder's baseline and takes in edits made so far (exec: call before starting the process). */
  async prepare(cwd: string): Promise<Disposable> {
    const slot = await this.#acquire(cwd);
    const tracker = await slot.tracker;
    if (tracker) this.#distribute(slot, await tracker.sync().catch((err) => this.#syncFailed(err)));
    return toDisposable(() => this.#release(slot));
  }

  /**
   * Starts recording a turn. Edits made before it are taken in first (unless `prepared`: the caller ran
   * `prepare` just before starting something that may already be writing). With stat walks, that sync runs
   * while the turn already works when the workspace's clock can be read (tracker.ts `turnStamp`): a file changed
   * after the turn started is then left to the turn's end, which compares it with the version known before.
   */
  async beginTurn(info: TurnInfo, opts: { prepared?: boolean } = {}): Promise<TurnCapture> {
    const slot = await this.#acquire(info.cwd);
    const tracker = await slot.tracker;
    const capture = new TurnCapture(this.#host(slot), info, slot.root, tracker);
    const since =
      tracker && !opts.prepared && this.#opts.overlapTurnStart !== false ? await tracker.turnStamp() : undefined;
    if (tracker && !opts.prepared) {
      // the edits made before this turn go to the turns already running, never to this one
      const before = tracker.sync(since !== undefined ? { since } : {}).catch((err) => this.#syncFailed(err));
      const taken = before.then((deltas) => this.#distribute(slot, deltas, capture));
      if (since === undefined) await taken;
      else background(taken, "taking in the edits made before a turn");
    }
    slot.open.add(capture);
    return capture;
  }

  /**
   * Resolves once every turn that has ended has been written, and every folder tracker released (or disposed)
   * has saved its manifest (the CLI awaits this before exiting; the window at its shutdown).
   */
  async flush(): Promise<void> {
    while (this.#ending.size) await Promise.allSettled([...this.#ending]);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const slot of this.#slots.values()) this.#close(slot);
    this.#slots.clear();
    this.#walker?.dispose();
    this.#recorded.dispose();
    this.#conflicts.dispose();
  }

  #host(slot: Slot): CaptureHost {
    return {
      blobs: this.blobs,
      append: (threadId, inputs) => this.append(threadId, inputs),
      finish: async (capture) => {
        try {
          const tracker = await slot.tracker;
          if (tracker) this.#distribute(slot, await tracker.sync().catch((err) => this.#syncFailed(err)));
        } finally {
          slot.open.delete(capture);
          this.#release(slot);
        }
      },
      track: (p) => this.track(p),
      finished: (capture) => this.#finished(capture),
      warn: (m) => this.#logger.warn(`edit ledger: ${m}`),
      staleWrite: (capture, write) => this.#staleWrite(capture, write),
    };
  }

  #syncFailed(err: unknown): FileDelta[] {
    this.#logger.warn(`edit ledger: looking for changed files failed: ${errorMessage(err)}`);
    return [];
  }

  /** Work that `flush` waits for (a turn being written). */
  track(p: Promise<unknown>): void {
    const t = p.catch(() => undefined).finally(() => this.#ending.delete(t));
    this.#ending.add(t);
  }

  async #finished(capture: TurnCapture): Promise<OpView> {
    const { threadId } = capture.info;
    const op = (await this.readAsync(threadId)).ops.find((o) => o.op === capture.op) ?? {
      op: capture.op,
      type: "turn" as const,
      turn: capture.info.turn,
      startedAt: capture.startedAt,
      files: [],
    };
    this.#radar(capture, op);
    this.#safely(() => this.#recorded.fire({ threadId, op }));
    return op;
  }

  /** Two live sessions changed the same file; or a file changed while several turns ran in its folder. */
  #radar(capture: TurnCapture, op: OpView): void {
    const { threadId } = capture.info;
    const mine = this.#live.get(threadId);
    for (const f of op.files) {
      const others = [...this.#live].filter(([id, s]) => id !== threadId && s.touched.has(f.path)).map(([id]) => id);
      if (others.length)
        this.#notice({
          kind: "two_sessions",
          threadId,
          path: f.path,
          otherThreadIds: others,
          message: `${capture.info.agent.name} changed ${f.path}, which ${others.length === 1 ? "another live session" : `${others.length} other live sessions`} changed too`,
        });
      mine?.touched.add(f.path);
    }
    for (const path of capture.sharedPaths)
      this.#notice({
        kind: "shared_turns",
        threadId,
        path,
        otherThreadIds: [],
        message: `${path} changed on disk while several sessions were working in this folder; it is recorded for each of them`,
      });
  }

  #staleWrite(capture: TurnCapture, write: FileWrite): void {
    this.#notice({
      kind: "stale_write",
      threadId: capture.info.threadId,
      path: write.path,
      otherThreadIds: [],
      message: `${capture.info.agent.name} rewrote ${write.path}, which changed after it last read it; the changes since were merged in where they did not overlap — review the result`,
    });
  }

  #notice(n: ConflictNotice): void {
    this.#logger.info(`conflict radar: ${n.message}`);
    this.#safely(() => this.#conflicts.fire(n));
  }

  /** Gives each open turn (but `except`) its share of a sync's deltas (see the module comment on attribution). */
  #distribute(slot: Slot, deltas: FileDelta[], except?: TurnCapture): void {
    const open = [...slot.open].filter((c) => c !== except);
    if (!deltas.length || !open.length) return;
    if (open.length === 1) return open[0].addDeltas(deltas, false);
    for (const d of deltas) {
      const abs = join(slot.root, d.rel);
      const claimants = open.filter((c) => c.claims(abs));
      if (claimants.length === 1) claimants[0].addDeltas([d], false);
      else for (const c of claimants.length ? claimants : open) c.addDeltas([d], true);
    }
  }

  /** The folder's slot (one per real path), its tracker opened on first use. */
  async #acquire(cwd: string): Promise<Slot> {
    const root = await realpath(cwd).catch(() => cwd);
    // a session that starts while the ledger is disposed tracks nothing (no tracker left behind undisposed)
    if (this.#disposed) return { root, tracker: Promise.resolve(undefined), refs: 1, open: new Set() };
    let slot = this.#slots.get(root);
    if (!slot) {
      const tracker = WorkspaceTracker.open(root, {
        blobs: this.blobs,
        limits: this.#opts.limits,
        watch: this.#opts.watch,
        cacheDir: homeLayout(this.#opts.home).ledgerManifestsDir,
        logger: this.#logger,
        ...(this.#walker ? { walker: this.#walker } : {}),
      }).catch((err) => {
        this.#logger.warn(`edit ledger: cannot track ${root}: ${errorMessage(err)}; only fs writes are recorded`);
        return undefined;
      });
      slot = { root, tracker, refs: 0, open: new Set() };
      this.#slots.set(root, slot);
    }
    slot.refs++;
    return slot;
  }

  #release(slot: Slot): void {
    if (--slot.refs > 0 || this.#slots.get(slot.root) !== slot) return;
    this.#slots.delete(slot.root);
    this.#close(slot);
  }

  /** Disposes the slot's tracker; its manifest's save is work `flush` waits for. */
  #close(slot: Slot): void {
    const closing = slot.tracker.then((t) => t?.dispose());
    background(closing, "closing a folder tracker");
    this.track(closing);
  }

  #safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#logger.warn("an edit-ledger listener failed", err);
    }
  }
}

let walkWorkerScript: { path: string | undefined } | undefined;

/**
 * dist/walk-worker.js next to the running bundle (dist/ or dist/cli/), or undefined (a test bundle). Looked for
 * once per process (the window passes its script: it never looks).
 */
function defaultWalkWorker(): string | undefined {
  walkWorkerScript ??= {
    path: [join(__dirname, "walk-worker.js"), join(__dirname, "..", "walk-worker.js")].find((p) => existsSync(p)),
  };
  return walkWorkerScript.path;
}
