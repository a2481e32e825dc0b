/**
 * The engine's requests (#35 item 7): the way into the engine for its operations that are not live sessions (those
 * are the thread host's protocol, core/host/protocol.ts). One typed union of plain-data requests keyed by `op`, the
 * reply of each op, and the `Engine` a front end calls them on: in process (`localEngine`, core/engine/local.ts:
 * no host needed) or over the host's socket (`HostConnection.engine`, core/host/client.ts), with the same types and
 * the same dispatcher behind both (core/engine/serve.ts).
 *
 * The rule (scripts/engine-boundary.mjs): every request and reply is plain JSON data (model types, strings,
 * numbers, arrays and objects of them), never an engine object (no store, database, class instance or function),
 * so that it crosses the socket unchanged; test/unit/core/engine/requests.test.ts round-trips each op's reply
 * through JSON. Paths are absolute (the caller resolves them against its own folder). An engine error keeps its
 * `AcpThreadsError` code and message on both transports.
 */
import type { AgentRef } from "../model/records";
import type { SnapshotListing } from "../model/snapshot";
import type { CategorySize, DataCategory } from "../retention/measure";
import type { GcItem } from "../retention/gc";
import type { UsageGroup } from "../usage/groups";
import type { UsageReport } from "../usage/usage-query";
import type { PermissionsReplies, PermissionsRequest } from "./requests-permissions";
import type { RecallReplies, RecallRequest } from "./requests-recall";
import type { AgentsReplies, AgentsRequest } from "./requests-agents";
import type { WorktreeReplies, WorktreeRequest } from "./requests-worktree";
import type { LedgerReplies, LedgerRequest } from "./requests-ledger";
import type { SandboxReplies, SandboxRequest } from "./requests-sandbox";
import type { ThreadsReplies, ThreadsRequest } from "./requests-threads";
import type { SessionsReplies, SessionsRequest } from "./requests-sessions";
import type { RegistryReplies, RegistryRequest } from "./requests-registry";
import type { AgentImportReplies, AgentImportRequest } from "./requests-agent-import";
import type { InstallProgress } from "../registry/types";
import type { RecallIndexReplies, RecallIndexRequest, RecallImportProgress } from "./requests-recall-index";
import type { WorktreeThreadReplies, WorktreeThreadRequest } from "./requests-worktree-thread";
import type { BestOfReplies, BestOfRequest } from "./requests-bestof";
import type { CliTargetReplies, CliTargetRequest } from "./requests-clitarget";
import type { AgentResolveReplies, AgentResolveRequest } from "./requests-agent-resolve";
import type { FollowProgress, FollowReplies, FollowRequest } from "./requests-follow";
import type { ReviewReplies, ReviewRequest } from "./requests-review";
import type { BundleReplies, BundleRequest } from "./requests-bundle";

export type EngineRequest =
  /** The folder exports go to when none is named (#37): `home`'s Downloads, else `home` (none: the OS's home). */
  | { op: "export.folder"; home?: string }
  /** The default file names of a thread's snapshot and Markdown export (for a save dialog). */
  | { op: "export.names"; threadId: string }
  /** The snapshot files in these folders, newest first (`savedOnly`: only files a save named); unreadable ones too. */
  | { op: "snapshot.list"; dirs: { dir: string; savedOnly?: boolean }[] }
  /** One snapshot file, read and checked (an error names the file and what is wrong). */
  | { op: "snapshot.inspect"; path: string }
  /**
   * Saves a thread as a snapshot to `outFile`, or into `dir` (default: `<its folder>/.acp-threads`). Progress:
   * message counts, for a thread of more than 500 messages.
   */
  | { op: "snapshot.export"; threadId: string; outFile?: string; dir?: string }
  /**
   * Restores a snapshot file as a new thread, in `rootDir` instead of the snapshot's folder when given (that must be
   * inside one of `allowedRoots` when given). Progress: message counts, and warnings (a start commit not found).
   */
  | { op: "snapshot.restore"; path: string; rootDir?: string; allowedRoots?: string[] }
  /** A thread as Markdown: the text, or (with `outFile`) written there with its images beside it. */
  | { op: "markdown.export"; threadId: string; outFile?: string }
  /**
   * Forks thread `sourceId` after message `at` (as `threads show` numbers them; 0 with `allowEmpty`: before the
   * first, for a rewind to the first prompt) into a new thread the source lists.
   */
  | {
      op: "fork.write";
      sourceId: string;
      at: number;
      agent?: AgentRef;
      agentSessionId?: string;
      title?: string;
      allowEmpty?: boolean;
    }
  /**
   * Lists `to` among `from`'s successors (a handoff). `write: false`: only says the patch, for a caller that writes
   * `from` through its own live writer.
   */
  | { op: "handoff.link"; from: string; to: string; write?: boolean }
  /** The data home's size per category (threads, trash, traffic, ledger, …). */
  | { op: "retention.measure" }
  /**
   * Garbage collection (`acp-threads gc`): plans what outlives its thread, the trash past `trashDays`, traffic over
   * `trafficMaxBytes` (0: no cap), in `only` these categories, and removes it (`dryRun`: only plans). The plan is
   * made here, never taken from the caller: a request names no path to remove.
   */
  | { op: "retention.gc"; trashDays?: number; trafficMaxBytes?: number; only?: DataCategory[]; dryRun?: boolean }
  /** Clears whole categories of the data home (a thread a live writer holds is kept, with its files). */
  | { op: "retention.clear"; categories: DataCategory[] }
  /**
   * The tokens and costs the agents reported, summed per `by` (day, agent, model, thread: a thread's row is
   * labelled with its title, archived threads' too), from `since` (ms since the epoch), for one thread or agent.
   */
  | { op: "usage.report"; by: UsageGroup; since?: number; threadId?: string; agent?: string }
  | PermissionsRequest
  | RecallRequest
  | AgentsRequest
  /** A thread's worktree: its state, discard, commit to a branch (requests-worktree.ts). */
  | WorktreeRequest
  | LedgerRequest
  /** The sandbox's reports: this machine's sandbox, the egress allow-list checked (requests-sandbox.ts). */
  | SandboxRequest
  /** Reading threads: the listing, one thread's records and metadata, a rename (requests-threads.ts). */
  | ThreadsRequest
  /** The agent registry and the agents installed from it (requests-registry.ts). */
  | RegistryRequest
  /** An agent's own past sessions imported as threads (requests-agent-import.ts). */
  | AgentImportRequest
  /** Recall's index: importing history, compacting after it (requests-recall-index.ts). */
  | RecallIndexRequest
  /** The thread a `worktrees` command names, with its worktree (requests-worktree-thread.ts). */
  | WorktreeThreadRequest
  /** The Best of N records, read (requests-bestof.ts). */
  | BestOfRequest
  /** The front ends' thread listings: named sessions, "since you left", the listing from files (requests-sessions.ts). */
  | SessionsRequest
  /** The CLI's thread targets: a THREAD argument's whole id, a folder's workspace (requests-clitarget.ts). */
  | CliTargetRequest
  /** Resolving an agent: what an `--agent` value names, where an agent's program is (requests-agent-resolve.ts). */
  | AgentResolveRequest
  /** Following a thread another process writes, until it is free (requests-follow.ts). */
  | FollowRequest
  /** Inline review: a reviewed file's pending hunks placed on its text now, its comments' thread (requests-review.ts). */
  | ReviewRequest
  /** Bug bundles: a thread's traffic and records, redacted, saved to attach to an issue (requests-bundle.ts). */
  | BundleRequest;

export type EngineOp = EngineRequest["op"];

/** What each op answers. */
export interface EngineReplies
  extends
    PermissionsReplies,
    RecallReplies,
    AgentsReplies,
    WorktreeReplies,
    LedgerReplies,
    SandboxReplies,
    ThreadsReplies,
    RegistryReplies,
    AgentImportReplies,
    RecallIndexReplies,
    WorktreeThreadReplies,
    BestOfReplies,
    SessionsReplies,
    CliTargetReplies,
    AgentResolveReplies,
    FollowReplies,
    ReviewReplies,
    BundleReplies {
  "export.folder": { dir: string };
  "export.names": { snapshot: string; markdown: string };
  "snapshot.list": SnapshotListing[];
  /** `size`: the snapshot's bytes as JSON; `rootDir`: the folder it was saved in. */
  "snapshot.inspect": SnapshotListing & { rootDir: string };
  "snapshot.export": { path: string; messages: number };
  /** `path`: the new thread's file. */
  "snapshot.restore": { threadId: string; path: string; messages: number };
  /** `path`: the file written (absent: none, `markdown` is the export); `assets`: images copied beside it. */
  "markdown.export": { markdown: string; path?: string; assets: string[]; warnings: string[] };
  /** `unlinked`: why the source does not list the fork (another process holds it). */
  "fork.write": { threadId: string; atEnd: boolean; unlinked?: string };
  /** `error`: why `from` does not list `to` (another process holds it); `patch`: the patch (`write: false`). */
  "handoff.link": { error?: string; patch?: { handedOffTo: string[] } };
  "retention.measure": CategorySize[];
  /** `items`: the plan; `planned`: its bytes; `bytes`: what was freed (0 for a dry run); `failed`: not removed. */
  "retention.gc": { items: GcItem[]; planned: number; bytes: number; failed: { path: string; error: string }[] };
  /** `keptLive`: threads kept because a live writer holds them. */
  "retention.clear": { bytes: number; keptLive: string[]; failed: { path: string; error: string }[] };
  "usage.report": UsageReport;
}

export type EngineReply<O extends EngineOp> = EngineReplies[O];

/**
 * What a long request reports while it works: how far it got, or a warning (in order with the progress), or the
 * step it is at (an install: "Installing …").
 */
export type EngineProgress =
  | { t: "progress"; done: number; total: number }
  | { t: "warning"; message: string }
  | { t: "step"; message: string }
  /** An agent install's phase (`registry.install`, `registry.update`): download with its share, verify, … */
  | ({ t: "install" } & InstallProgress)
  /** How far a recall import got (requests-recall-index.ts). */
  | RecallImportProgress
  /** A followed thread's new records and writer (`threads.follow`, requests-follow.ts). */
  | FollowProgress;

export interface EngineCallOptions {
  /**
   * Aborted before the request starts: it is not made. Once started it runs to its end (its writes are atomic),
   * except a request that says it stops: `runtime.install`, the recall requests (between their steps, with an
   * `interrupted` error; an import answers with what it committed), `threads.follow` (it replies `free: false`). Over the host's socket and in the engine worker
   * (core/engine/worker.ts) the abort is sent on as a cancel of that request.
   */
  signal?: AbortSignal;
  onProgress?: (p: EngineProgress) => void;
}

/** The engine, as a front end calls it. */
export interface Engine {
  call<R extends EngineRequest>(req: R, opts?: EngineCallOptions): Promise<EngineReplies[R["op"]]>;
}
