/**
 * What a run on a thread (run-loop.ts) is given: the session to open and its prompts, and the ports through which
 * the front ends differ (who answers permissions and elicitations, where terminals run, which files the agent
 * reads, how a held thread is followed, the sandbox's preparation, where events and notes go).
 */
import type { McpServer } from "@agentclientprotocol/sdk";
import type { AcpAgentRuntime } from "../acp/agent-runtime";
import type { ProtocolLogEntry } from "../acp/protocol-log";
import type { EditLedger } from "../ledger/edit-ledger";
import type { Logger } from "../log";
import type { AgentSpec, PermissionPolicy } from "../model/agent";
import type { ContextItem, PromptPart } from "../model/context";
import type { ElicitationAsker } from "../model/elicitation";
import type { RuntimeEvent } from "../model/events";
import type { ThreadStartRecord, WorktreeRef } from "../model/records";
import type { NextPrompt, RunNote } from "../model/run";
import type { RetryMode } from "../model/watchdog";
import type { PermissionAsker, TerminalHost, WorkspaceFiles } from "../ports";
import type { ContextSources, PromptCaps } from "../prompt/blocks";
import type { SandboxPlan } from "../sandbox/plan";
import type { ThreadSession } from "../session";
import type { ThreadStore } from "../store/thread-store";
import type { Supervisor } from "../watchdog/supervisor";
import type { OpenProgressListener } from "./open-thread";

/** The thread and agent a run is for: a stored thread (`threadId`) or a new one, in `cwd` or a worktree made for it. */
export interface RunTarget {
  agent: AgentSpec;
  cwd: string;
  threadId?: string;
  worktree?: WorktreeRef;
}

/** Builds a first turn the front end composes itself (a review file's comments), with the prompt's text and context. */
export type FirstTurn = (caps: PromptCaps | undefined, text: string, context?: ContextItem[]) => PromptPart[];

/** Where the front ends differ. */
export interface RunPorts {
  /** Asks a person for the policy's "ask" verdicts; none: those are denied. */
  asker?: PermissionAsker;
  /** Answers the agent's elicitation requests; none: elicitation is not offered. */
  elicitor?: ElicitationAsker;
  /** The agent's files for a session in `cwd` (an attached editor's); default: the disk. */
  files?: (cwd: string) => WorkspaceFiles;
  /** Where the agent's terminals are shown for a session in `cwd`; none: nowhere. */
  terminalHost?: (cwd: string, agentName: string) => TerminalHost;
  /** Follows a stored thread another process holds until it is free (false: give up); none: a held thread is `locked`. */
  whenFree?: (threadId: string, stop: AbortSignal) => Promise<boolean>;
  /**
   * Runs before the agent starts (a review file read, the sandbox prepared, with the session's folders beyond its
   * cwd): a throw is a session that never opened. Returns the sandbox the agent runs in, closed with the run.
   */
  prepare?: (target: RunTarget, roots: readonly string[]) => Promise<SandboxPlan | undefined>;
  /** After `prepare`: the first turn as the front end composes it (a review), sent even with no prompt given. */
  firstTurn?: () => FirstTurn | undefined;
  /** What opening did with a worktree. */
  onProgress?: OpenProgressListener;
  note?: (note: RunNote) => void;
  /** Every event of the session, with the run's turn number. */
  event?: (e: RuntimeEvent, turn: number) => void;
  /** Each agent runtime the run creates, as it is created. */
  onRuntime?: (runtime: AcpAgentRuntime) => void;
  /** Once the session is open, before its first turn. */
  onSession?: (session: ThreadSession, sources: ContextSources) => void;
  /** Once the session's watchdog is there (none with `retry: "off"`). */
  onSupervisor?: (supervisor: Supervisor) => void;
  /** Once the thread is open and recorded. */
  onThread?: (threadId: string) => void;
  /** Every protocol line of the thread's agent process(es). */
  onTraffic?: (e: ProtocolLogEntry) => void;
  /** A prompt sent while the run goes on: asked for after each turn, waited for in a run kept open; none: done. */
  nextPrompt?: () => NextPrompt | undefined | Promise<NextPrompt | undefined>;
}

export interface RunLoopOptions extends RunPorts {
  store: ThreadStore;
  logger: Logger;
  /** The thread and agent, resolved once the run's clock runs (a worktree may be made). */
  target: () => Promise<RunTarget>;
  prompts: readonly string[];
  /** Context for the first prompt, sent as the agent's prompt capabilities allow. */
  context?: ContextItem[];
  /** The first prompt as composed, its text and context in order: sent instead of the first of `prompts`. */
  firstParts?: PromptPart[];
  /** Further folders of the session: the agent reaches them and is told; none for a worktree. */
  roots?: string[];
  mcpServers?: McpServer[];
  /** false: the thread's protocol traffic is not recorded under the data home. */
  recordTraffic?: boolean;
  permission: PermissionPolicy;
  env: Record<string, string>;
  /** The agent's environment before `env`; default: ours. */
  baseEnv?: NodeJS.ProcessEnv;
  authMethodId?: string;
  /**
   * The Node for a Node-script agent its default `node` does not fit (the editor's `acpThreads.nodePath`;
   * ACP_THREADS_NODE in the agent's env wins): runtime/node-select.ts. None: not set.
   */
  nodePath?: string;
  /** Stops the run (a person's Ctrl-C, a stopped host): it ends `interrupted`. */
  signal: AbortSignal;
  /** The run ends `timeout` after this long. */
  timeoutMs?: number;
  stallMs: number;
  retry: RetryMode | "off";
  /**
   * The run stays after an error answer, a watchdog alert or a denied permission (a window's session does); it
   * leaves when its agent is dead and the watchdog has no rung left for a person. Default: it leaves on any of those.
   */
  keepOpen?: boolean;
  /** A new thread's labels: who started it, where it came from, its title, its tags. */
  startedFrom?: ThreadStartRecord["startedFrom"];
  origin?: ThreadStartRecord["origin"];
  title?: string;
  tags?: readonly string[];
  /** A new thread that cannot be written is told (`thread_not_recorded`) and the run answers anyway. */
  bestEffortRecording?: boolean;
  /** Records what the turns change (default: the data home's ledger, flushed and disposed with the run). */
  ledger?: EditLedger;
  /** The default ledger's walk worker script (EditLedgerOptions.walkWorker); none: looked for beside the bundle. */
  walkWorker?: string;
}
