/** The options of `acp-threads run` on a thread (run-in-process.ts), shared by its parts and callers (handoff, best of N). */
import type { EditLedger } from "../core/ledger/edit-ledger";
import type { Logger } from "../core/log";
import type { ContextItem } from "../core/model/context";
import type { ElicitationAsker } from "../core/model/elicitation";
import type { ProtocolLogEntry } from "../core/acp/protocol-log";
import type { ThreadStartRecord, WorktreeRef } from "../core/model/records";
import type { SandboxSettings } from "../core/model/sandbox";
import type { ThreadStore } from "../core/store/thread-store";
import type { RetryMode } from "../core/model/watchdog";
import type { CliIO } from "./io";
import type { TurnOutput } from "./output/turn-output";

export interface ThreadRunOptions {
  /** Answers the agent's elicitations (`--elicitation`); none: elicitation is not offered. */
  elicitor?: ElicitationAsker;
  /** Once the thread is open and recorded (a handoff links it). */
  onThread?: (threadId: string) => void;
  /** Every protocol line of the thread's agent process(es) (`--protocol-log`). */
  onTraffic?: (e: ProtocolLogEntry) => void;
  io: CliIO;
  store: ThreadStore;
  logger: Logger;
  output: TurnOutput;
  prompts: string[];
  /** Context for the first prompt (`--file`, `--image`), sent as the agent's prompt capabilities allow. */
  context?: ContextItem[];
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
  env: Record<string, string>;
  authMethodId?: string;
  timeoutMs?: number;
  /** Wait for (and follow) a thread another process writes; false: exit 6 at once. */
  wait: boolean;
  stallMs: number;
  retry: RetryMode | "off";
  /** A new thread's origin (a handoff names the thread it continues). */
  origin?: ThreadStartRecord["origin"];
  /** Who starts a new thread (#36); default: "cli" with a TTY on stdin, else "automation". */
  startedFrom?: "cli" | "automation";
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
