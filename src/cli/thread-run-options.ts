/** The options of `acp-threads run` on a thread (thread-run.ts), shared by its parts and callers (the host, best of N). */
import type { McpServer } from "@agentclientprotocol/sdk";
import type { EditLedger } from "../core/ledger/edit-ledger";
import type { Logger } from "../core/log";
import type { ContextItem, PromptPart } from "../core/model/context";
import type { ThreadStartRecord, WorktreeRef } from "../core/model/records";
import type { SandboxSettings } from "../core/model/sandbox";
import type { ThreadStore } from "../core/store/thread-store";
import type { RetryMode } from "../core/model/watchdog";
import type { CliIO } from "./io";
import type { TurnOutput } from "./output/turn-output";
import type { RunPorts } from "../core/session/run-loop";

export type { NextPrompt } from "../core/model/run";

/** The run loop's ports the CLI's callers fill (the thread host: its clients' asker, files, terminals, prompts). */
type CliPorts = Pick<
  RunPorts,
  | "asker"
  | "elicitor"
  | "files"
  | "terminalHost"
  | "onRuntime"
  | "onSession"
  | "onSupervisor"
  | "onThread"
  | "onTraffic"
  | "nextPrompt"
>;

export interface ThreadRunOptions extends CliPorts {
  io: CliIO;
  store: ThreadStore;
  logger: Logger;
  output: TurnOutput;
  prompts: string[];
  /** Context for the first prompt (`--file`, `--image`), sent as the agent's prompt capabilities allow. */
  context?: ContextItem[];
  /**
   * The first prompt as composed, its text and context in order (the editor's prompt box, in the thread host):
   * sent instead of the first of `prompts` with `context`.
   */
  firstParts?: PromptPart[];
  /**
   * Further folders of the session (the editor's other workspace folders): the agent reaches them and is told
   * (`additionalDirectories`), and the sandbox leaves them writable, as in the editor; none for a worktree.
   */
  roots?: string[];
  /** MCP servers offered to the agent (the editor's recall tools, in the thread host). */
  mcpServers?: McpServer[];
  /** false: the thread's protocol traffic is not recorded under the data home (`acpThreads.recordTraffic` off). */
  recordTraffic?: boolean;
  /** `--review FILE`: review comments sent as the first turn (the first prompt, if any, opens it). */
  review?: string;
  thread?: string;
  session?: string;
  agent?: string;
  /** A new thread's agent id and display name instead of the command line's (the editor's agent, in the host). */
  agentLabel?: { id: string; name: string };
  cwd?: string;
  /** "ask" only with `asker` (the thread host's clients answer: `run --detach --permission ask`). */
  permission: "approve-all" | "approve-reads" | "deny-all" | "ask";
  /**
   * The run stays after an error answer, a watchdog alert or a denied permission, as a window's session does (the
   * thread host's runs kept open between prompts); it leaves when its agent is dead and the watchdog has no rung
   * left for a person. Default: `acp-threads run`'s rules (it leaves on any of those).
   */
  keepOpen?: boolean;
  env: Record<string, string>;
  /** The agent's environment before `env` (the thread host: the shell that asked for the run); default: ours. */
  baseEnv?: NodeJS.ProcessEnv;
  authMethodId?: string;
  timeoutMs?: number;
  /** Wait for (and follow) a thread another process writes; false: exit 6 at once. */
  wait: boolean;
  stallMs: number;
  retry: RetryMode | "off";
  /** A new thread's origin (a handoff names the thread it continues). */
  origin?: ThreadStartRecord["origin"];
  /** Who starts a new thread (#36); default: "cli" with a TTY on stdin, else "automation". */
  startedFrom?: ThreadStartRecord["startedFrom"];
  /** A new thread's title (a handoff's "Handoff: <source title>"); default: its first prompt. */
  title?: string;
  /** Records what the turns change (default: the data home's ledger, as the editor does). */
  ledger?: EditLedger;
  /** A new thread works in a git worktree of its own (`run --worktree`); a folder outside git gets a plain session. */
  worktree?: boolean;
  /** A new thread works in this worktree, made by the caller (best of N makes one per candidate). */
  preparedWorktree?: { cwd: string; ref: WorktreeRef };
  /** Run the agent in the OS sandbox with these settings (`--sandbox`); none: unsandboxed. */
  sandbox?: SandboxSettings;
}
