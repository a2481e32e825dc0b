/**
 * Folded thread metadata: `thread_start` sets the initial values and every `meta_patch` applies literally
 * (absent = unchanged, null = cleared). No other record changes metadata — observations such as the title
 * or counters are derived above the store (LiveThread) and written as patches.
 */
import type {
  MetadataPatch,
  ThreadCounters,
  ThreadRecord,
  ThreadStartRecord,
  ThreadStartedFrom,
  ThreadStatus,
  WorktreeRef,
} from "./records";

export interface ThreadMetadata extends Pick<
  ThreadStartRecord,
  "threadId" | "agent" | "mode" | "cwd" | "repoRoot" | "gitHead"
> {
  createdAt: string;
  /** Time of the last record. */
  lastActivity: string;
  title: string | null;
  status: ThreadStatus;
  agentSessionId: string | null;
  counters: Counters;
  transcriptPath: string | null;
  tags: string[];
  model: string | null;
  reason: string | null;
  origin: ThreadStartRecord["origin"] | null;
  /** Threads this one was handed off to, oldest first. */
  handedOffTo: string[];
  /** The thread's own git worktree (#25), while it has one. */
  worktree: WorktreeRef | null;
  /** Threads forked from this one, oldest first. */
  forks: string[];
  /** The title is the user's (a rename): agent titles (`session_info_update`) do not replace it. */
  titleByUser: boolean;
  /** Who started it, as recorded (null: written before #36; `startedFromOf` guesses). */
  startedFrom: ThreadStartedFrom | null;
  /** Archived (#36): a `meta_patch` in the thread's own file, so the index can be rebuilt from it. */
  archived: boolean;
  /**
   * The folders its sessions were allowed to write, when one reached beyond its cwd (a multi-root window, a
   * hosted run's `roots`): absent on older threads and on a thread whose sessions only had its cwd. Data from disk:
   * read it through thread/folders.ts (`recordedFolders`), which checks each.
   */
  folders?: string[];
}

/** A thread's counters; `steered` only once a message was steered into a turn. */
export type Counters = Required<Omit<ThreadCounters, "steered">> & Pick<ThreadCounters, "steered">;

export const ZERO_COUNTERS: Counters = { turns: 0, userMessages: 0, agentMessages: 0, toolCalls: 0 };

/** The thread's prompts (user messages that began a turn, not steered into one): the edit ledger's turn numbers. */
export const promptCount = (c: Counters): number => c.userMessages - (c.steered ?? 0);

export function initialMetadata(start: ThreadStartRecord): ThreadMetadata {
  return {
    threadId: start.threadId,
    agent: start.agent,
    mode: start.mode,
    cwd: start.cwd,
    repoRoot: start.repoRoot,
    gitHead: start.gitHead,
    createdAt: start.ts,
    lastActivity: start.ts,
    title: start.title ?? null,
    status: "idle",
    agentSessionId: start.agentSessionId ?? null,
    counters: { ...ZERO_COUNTERS },
    transcriptPath: null,
    tags: [],
    model: null,
    reason: null,
    origin: start.origin ?? null,
    handedOffTo: [],
    worktree: null,
    forks: [],
    titleByUser: false,
    startedFrom: start.startedFrom ?? null,
    archived: false,
  };
}

/** Applies one patch; returns a new object. */
export function applyPatch(meta: ThreadMetadata, patch: MetadataPatch): ThreadMetadata {
  const next = { ...meta };
  const has = (k: keyof MetadataPatch) => Object.prototype.hasOwnProperty.call(patch, k) && patch[k] !== undefined;
  if (has("title")) next.title = patch.title ?? null;
  if (has("status")) next.status = patch.status ?? "idle";
  if (has("agentSessionId")) next.agentSessionId = patch.agentSessionId ?? null;
  if (has("counters"))
    next.counters =
      patch.counters === null ? { ...ZERO_COUNTERS } : { ...meta.counters, ...definedOnly(patch.counters!) };
  if (has("transcriptPath")) next.transcriptPath = patch.transcriptPath ?? null;
  if (has("handedOffTo")) next.handedOffTo = patch.handedOffTo ?? [];
  if (has("forks")) next.forks = patch.forks ?? [];
  if (has("tags")) next.tags = patch.tags ?? [];
  if (has("model")) next.model = patch.model ?? null;
  if (has("reason")) next.reason = patch.reason ?? null;
  if (has("worktree")) next.worktree = patch.worktree ?? null;
  if (has("titleByUser")) next.titleByUser = patch.titleByUser ?? false;
  if (has("archived")) next.archived = patch.archived ?? false;
  if (patch.folders === null) delete next.folders;
  else if (has("folders")) next.folders = [...patch.folders!];
  return next;
}

/**
 * Who started a thread: as recorded, else a guess from what older threads have (#36): an exec run's mode, an
 * agent-session import's origin; everything else was started live, by the editor or the CLI, which older
 * records do not tell apart: "editor" (the surface most threads come from).
 */
export function startedFromOf(m: ThreadMetadata): ThreadStartedFrom {
  if (m.startedFrom) return m.startedFrom;
  if (m.mode === "exec") return "exec";
  if ((m.origin?.kind as string | undefined) === "agent-import") return "agent-import";
  return "editor";
}

function definedOnly(c: ThreadCounters): ThreadCounters {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => typeof v === "number")) as ThreadCounters;
}

/** Incremental fold: feed records in order, read `metadata` at any time. */
/** A patch of the title alone (a rename) or an (un)archive is no activity: the thread's age stays (#37, #36). */
const NOT_ACTIVITY = new Set(["title", "titleByUser", "archived"]);
function isRename(record: ThreadRecord): boolean {
  return record.kind === "meta_patch" && Object.keys(record.patch).every((k) => NOT_ACTIVITY.has(k));
}

export class MetadataFolder {
  metadata: ThreadMetadata | undefined;
  add(record: ThreadRecord): void {
    if (record.kind === "thread_start") {
      // a second thread_start (never written by us) does not reset history-derived state
      if (!this.metadata) this.metadata = initialMetadata(record);
      return;
    }
    if (!this.metadata) return;
    if (record.ts > this.metadata.lastActivity && !isRename(record)) this.metadata.lastActivity = record.ts;
    if (record.kind === "meta_patch") this.metadata = applyPatch(this.metadata, record.patch);
  }
}

export function foldMetadata(records: Iterable<ThreadRecord>): ThreadMetadata | undefined {
  const folder = new MetadataFolder();
  for (const r of records) folder.add(r);
  return folder.metadata;
}
