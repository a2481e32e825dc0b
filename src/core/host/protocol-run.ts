/**
 * The thread host's `run` request's body (protocol.ts): what `run --detach`, an editor's hosted thread or a Best of N
 * candidate asks the host to run, as plain data. Additive, as the rest of the protocol: a field an older host does
 * not know is ignored by it.
 */
import type { WorktreeRef } from "../model/records";
import type { SandboxSettings } from "../model/sandbox";
import type { RecallMcpCommand } from "../recall/mcp-offer";
import type { WireContextItem, WirePromptPart } from "./wire-context";

/** What `run --detach` asks the host to run: the `run` command's own options, as plain data. */
export interface DetachedRun {
  /** The folder the client runs in (relative --cwd is resolved against it). */
  cwd: string;
  prompts: string[];
  agent?: string;
  /**
   * The agent's id and display name where the client knows it by one (an agent configured in the editor, sent as
   * a command line): the thread records them instead of the command's.
   */
  agentLabel?: { id: string; name: string };
  thread?: string;
  session?: string;
  runCwd?: string;
  worktree?: boolean;
  /**
   * A new thread that works in this worktree, made by the asking client (Best of N makes one per candidate), its
   * session in `cwd` inside it. The host refuses the run unless the worktree is one it would have made itself: a
   * worktree of a repository of the client's folders, in that repository's worktrees folder, named by real paths
   * (run-roots.ts `assertWorktreeOffered`).
   */
  preparedWorktree?: { ref: WorktreeRef; cwd: string };
  permission: "approve-all" | "approve-reads" | "deny-all" | "ask";
  /**
   * The policy's "ask" verdicts go to the attached clients (the editor's policy: approve-reads asks for writes);
   * without it only `permission: "ask"` asks, and the other policies deny what they would ask.
   */
  askClients?: boolean;
  /**
   * Who started the thread, as the client knows it (the editor: `editor`); none: `automation`, as for any run
   * with no terminal (`run --detach`). Only these labels are taken; a new thread only.
   */
  startedFrom?: "editor" | "cli" | "automation";
  /** A new thread's title (a handoff's "Handoff: <source title>"); none: its first prompt. At most PATCH_TITLE_MAX. */
  title?: string;
  /** A new thread that continues this stored thread (a handoff): its origin names it. */
  handoffFrom?: string;
  /** Extra environment for the agent (`--env`): held in the host's memory only, never written. */
  env: Record<string, string>;
  /**
   * The asking shell's environment, the agent's base as for a `run` typed there (its PATH, its API keys): held in
   * the host's memory only, never written. None: the host's own (that of the client that started it).
   */
  baseEnv?: Record<string, string>;
  authMethodId?: string;
  timeoutMs?: number;
  stallMs: number;
  retry: "offer" | "auto" | "off";
  /** `--file`/`--image`, resolved, checked and read by the asking client: context for the first prompt. */
  context?: WireContextItem[];
  /**
   * The first prompt as the editor's prompt box composed it (its text and context in order), instead of the first
   * of `prompts` with `context`. The host refuses the run when any context names a file outside its folders.
   */
  parts?: WirePromptPart[];
  /**
   * The editor's other workspace folders: the agent reaches them (`additionalDirectories`), the sandbox leaves
   * them writable and context may come from them, as for the editor's own sessions (none in a worktree). Each
   * must be inside the folders the asking client said are its own (`hello`'s `serves.roots`): else the run is
   * refused.
   */
  roots?: string[];
  /**
   * The recall tools offered to the agent as an MCP server (the editor's `acpThreads.recall.offerToAgents`): how
   * the asking client starts `acp-threads mcp`; the host names its own data home in the server's env.
   */
  recallMcp?: RecallMcpCommand;
  /** false: the thread's protocol traffic is not recorded under the data home (`acpThreads.recordTraffic` off). */
  recordTraffic?: boolean;
  /** `--sandbox`: the settings the asking client's flags gave (the host prepares the sandbox as `run` does). */
  sandbox?: SandboxSettings;
  /**
   * The Node for a Node-script agent its default `node` does not fit (the editor's `acpThreads.nodePath`, as its
   * own sessions get it; ACP_THREADS_NODE in the agent's env wins). None: the host's own choice (runtime/node-select.ts).
   */
  nodePath?: string;
  /** `--protocol-log FILE` (absolute): the host writes the run's traffic there when the run ends. */
  protocolLog?: string;
  /**
   * After its queue the run waits idle for the next prompt, its agent kept (the editor's hosted threads, as a
   * window's session keeps its agent between turns). It ends on `stop_thread`, when its agent exits, or when it
   * waited with no client attached for the host's idle time. Absent: it ends once its queue is empty (`run --detach`).
   */
  keepOpen?: boolean;
  /**
   * "Run once" (the editor's prompt box): the run takes its prompt only and ends after it, as a window's "Run once"
   * session does; a `prompt` to it is refused (`keepOpen` does not apply). Its status row says `once`.
   */
  once?: boolean;
  /**
   * `--elicitation`: what the agent's questions get. `ask` (the default): the clients attached to the thread are
   * asked (an `elicitation` push, first answer wins); with none attached it declines (as `run` does when stdin is
   * not a terminal).
   */
  elicitation?: "ask" | "decline" | "defaults";
  /**
   * The user's `acpThreads.hooks.turnEnded` (a user setting of the window that started the run): the host runs it
   * when a turn of this run ends (core/host/turn-hook.ts), as the window does for its own sessions. Held in the
   * host's memory only, never written.
   */
  turnEndedHook?: string;
}
