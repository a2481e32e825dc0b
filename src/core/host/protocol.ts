/**
 * The thread host's protocol (#35): one typed union of the messages between a client (the CLI, next the editor)
 * and the host process, both ends written against it. Newline-delimited JSON over the host's socket (wire.ts),
 * each line at most MAX_MESSAGE_BYTES. Versioned: a client says HOST_PROTOCOL in `hello`; a host of another
 * protocol answers an error and the client talks to the host of its own version (its folder is per version).
 *
 * Thread updates are the thread's own records (the JSONL lines), numbered from 0: `records` carries `from`, the
 * index of its first record, so a client keeps a cursor and an `attach` from that cursor gets the rest with
 * nothing lost or doubled. Our own protocol, to be mapped onto ACP's multi-client drafts once they are stable.
 */
import type { ToolKind } from "@agentclientprotocol/sdk";
import type { AuthStatus } from "../acp/auth-status";
import type { ElicitationAnswer, ElicitationForm } from "../model/elicitation";
import type { ThreadRecord } from "../model/records";
import type { HostSessionState } from "./session-state";
import type { RetryStep, SupervisorState } from "../model/watchdog";
import type { TurnUsageReport } from "./turn-report";
import type { WirePromptPart } from "./wire-context";
import type { ExecRequest, HostExecInfo } from "./protocol-exec";
import type { BestOfRequest } from "./protocol-best-of";
import type { DoorReply, DoorRequest, HelloRequest } from "./protocol-door";
import type { HostErrorReply } from "./protocol-refusal";
import type { DetachedRun } from "./protocol-run";
import type { EngineHostPush, EngineHostReply, EngineHostRequest } from "./protocol-engine";
import type { ServeAnswer, ServeOp, TerminalExitStatus } from "./protocol-serve";

export const HOST_PROTOCOL = 2;
/**
 * One message on the wire, its newline included; a longer line closes the connection. Records go in batches of
 * about 256 KB (hosted-thread.ts): only a single record over this size could not be sent.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** The most bytes of file text (JSON-encoded) a `serve` or `served` message carries: the rest is its envelope. */
export const MAX_SERVED_TEXT_BYTES = MAX_MESSAGE_BYTES - 4096;

/** What `run --detach` asks the host to run: protocol-run.ts. */
export type { DetachedRun } from "./protocol-run";

/** A permission request waiting for an answer from any attached client. */
export interface PendingQuestion {
  threadId: string;
  requestId: string;
  /** The tool call asked about (the editor shows the question on that call's card). */
  toolCallId?: string;
  /**
   * The kind of that tool call as the agent's request named it (`execute`, `edit` …: the editor's card says it, as
   * for a window session's question). Absent: the agent named none, or an older host (the card says `other`).
   */
  toolKind?: ToolKind;
  title: string;
  options: { optionId: string; name: string; kind: string }[];
  /**
   * The edit asked about, for the editor's diff review: the file as it is and as the agent proposes it. Only in
   * the `question` push to the thread's clients (never in status or events), and only while both texts together
   * are at most PROPOSAL_MAX_CHARS.
   */
  proposed?: { path: string; oldText: string | null; newText: string };
}

export const PROPOSAL_MAX_CHARS = 1024 * 1024;

/**
 * An agent's `elicitation/create` waiting for an answer from a client attached to its thread (the form already
 * checked by the host: core/acp/elicitation-form.ts), or its request to open a web page. First answer wins.
 */
export type PendingElicitation = {
  threadId: string;
  requestId: string;
  message: string;
  toolCallId?: string;
} & ({ mode: "form"; form: ElicitationForm } | { mode: "url"; elicitationId: string; url: string; host: string });

/** A hosted run's watchdog (the supervisor's state; `auto`: it climbs the retry ladder by itself). */
export type HostWatchdog = SupervisorState & { auto: boolean };

/** The longest title a client may give a thread the host holds (`patch`). */
export const PATCH_TITLE_MAX = 500;
/** The most thread ids one `patch` may add to a link list (`forks`, `handedOffTo`). */
export const PATCH_LINKS_MAX = 16;

/**
 * A metadata change a client asks of a thread the host holds (one writer per thread file: the host writes it
 * through its own handle, as the normal `meta_patch` record). `title`: the user's title, `null` or blank clears it
 * (the agent's titles apply again), as a rename in the store does. `forks` / `handedOffTo`: threads to add to the
 * thread's own lists (appended, never replacing them: a fork or a handoff made while the host runs its source), each
 * a stored thread whose origin names this thread (core/host/meta-patch.ts).
 */
export interface HostMetaPatch {
  title?: string | null;
  forks?: string[];
  handedOffTo?: string[];
}

export interface HostSessionInfo {
  threadId: string;
  state: "starting" | "working" | "idle" | "ended";
  clients: number;
  pending?: PendingQuestion;
  /** Its watchdog, once it has raised an alert or taken a rung (absent: nothing to show). */
  watchdog?: HostWatchdog;
  /**
   * Its watchdog climbs the retry ladder by itself (the run's `retry: auto`), whether or not it has anything to show
   * now (a panel says so as for a window session). Absent: it offers the rungs, or has no watchdog; an older host.
   */
  autoRetry?: true;
  /** A "Run once" run (DetachedRun.once): it takes no more prompts. */
  once?: boolean;
  /** The agent's id as the client that started the run named it (DetachedRun.agentLabel: an editor's agent). */
  agentId?: string;
  /** Its display name, named so too (a client that does not follow the thread draws its row with it). */
  agentName?: string;
  /**
   * The login state its agent last reported (`_auth/status_update`, its session state's): for a client that does
   * not follow the thread (an editor's draft picker says whether the agent is logged in).
   */
  authStatus?: AuthStatus;
  /** Its agent runs in the OS sandbox (the run asked for one and it was made): an editor's header says so. */
  sandboxed?: boolean;
}

export interface HostStatus {
  pid: number;
  version: string;
  protocol: number;
  uptimeMs: number;
  clients: number;
  /** The most bytes the host holds unsent for one client (bounded: a slow client catches up from the file). */
  maxUnsent: number;
  sessions: HostSessionInfo[];
  /** The exec runs the host owns that still run. */
  execs?: HostExecInfo[];
  /**
   * The ids of the hosted terminals that still run (agents' and exec runs'): a window that was not connected ends
   * the ones it shows that are not listed (host/terminals-gone.ts).
   */
  terminals?: string[];
  socket: string;
}

/**
 * What an elicitation asks for, in its `needs_input` event: a form's field names, or the host of the web page it
 * asks to open (its URL, which may carry a one-time code, and the form's texts stay with the thread's clients).
 */
export type ElicitationNeed = { mode: "form"; fields: string[] } | { mode: "url"; host: string };

/** Events across all sessions (`acp-threads events`). */
export type HostEvent =
  | { kind: "started"; threadId: string; at: string }
  /**
   * A person is asked: a permission question, or, with `elicitation`, an agent's elicitation (a form or a web
   * page). An elicitation's `question` carries its message as `title` and no options, so readers of `question`
   * keep working; it is answered in a client following the thread (not by `answer`), and its `answered` has
   * `action` and no option.
   */
  | { kind: "needs_input"; threadId: string; at: string; question: PendingQuestion; elicitation?: ElicitationNeed }
  | {
      kind: "answered";
      threadId: string;
      at: string;
      requestId: string;
      optionId: string | null;
      /**
       * The chosen option's name as the person saw it ("Yes, and don't ask again for `npm test`"), env values and
       * key-like strings left out (core/text/option-label.ts); absent for a cancel, an elicitation, an older record.
       */
      optionName?: string;
      by: string;
      /** An elicitation's answer: accept, decline or cancel (withdrawn, or a person cancelled). */
      action?: ElicitationAnswer["action"];
    }
  /** A turn began: the run's first prompt, or a later one from any client (a kept-open run's idle → working). */
  | { kind: "turn_started"; threadId: string; at: string }
  | { kind: "turn_ended"; threadId: string; at: string; stopReason: string | null; filesChanged: string[] }
  /** After a turn_ended, when the agent reported usage for the turn (tokens, cost, context). */
  | ({ kind: "usage"; threadId: string; at: string } & TurnUsageReport)
  | { kind: "ended"; threadId: string; at: string; exitCode: number; error?: string };

export type HostRequest =
  | HelloRequest
  | DoorRequest
  | EngineHostRequest
  | { t: "status"; id: number }
  | { t: "stop"; id: number; force: boolean }
  | { t: "run"; id: number; run: DetachedRun }
  /**
   * `elicits`: the client asks a person the agent's elicitations (an editor, a terminal): the host asks them only
   * while such a client is attached, and declines them otherwise.
   */
  | { t: "attach"; id: number; threadId: string; from: number; elicits?: boolean }
  | { t: "detach"; id: number; threadId: string }
  /**
   * `parts`: the prompt as the editor's prompt box composed it (text and context in order; `text` is its text),
   * refused like a run's `parts` when any context names a file outside the run's folders or is too large.
   */
  | { t: "prompt"; id: number; threadId: string; text: string; parts?: WirePromptPart[] }
  | { t: "cancel"; id: number; threadId: string }
  /**
   * `queued`: the text is a prompt in the host's queue, taken out of it once steered into the turn. `parts`: with
   * its context, checked as a `prompt`'s parts are (refused before the agent sees it).
   */
  | { t: "steer"; id: number; threadId: string; text: string; queued?: boolean; parts?: WirePromptPart[] }
  /** Takes a queued prompt out of the host's queue (an error once its turn started). */
  | { t: "unqueue"; id: number; threadId: string; text: string }
  /** `requestId`: the question the client showed (a later one is not answered by it); none: the only one
   * pending (refused `ambiguous` when more are: none is answered). */
  | { t: "answer"; id: number; threadId: string; option: string; requestId?: string }
  /**
   * Answers the elicitation `requestId` (an `elicitation` push): only from a client attached to the thread, while it
   * is pending, with content that fits its form. The first answer wins; every other client gets `settled`.
   */
  | { t: "elicited"; id: number; threadId: string; requestId: string; answer: ElicitationAnswer }
  /** Takes the watchdog's retry rung `step` (none: the next one), or forgets its alert (`dismiss`). */
  | { t: "retry"; id: number; threadId: string; step?: RetryStep; dismiss?: boolean }
  /**
   * Renames a thread the host holds (its run not ended), or lists a fork / handoff of it: written by the host, every
   * attached client gets the record.
   */
  | { t: "patch"; id: number; threadId: string; patch: HostMetaPatch }
  /**
   * Ends the host's run on a thread: a running turn is cancelled, the agent closed, the thread let go (`ended`).
   * The host itself stays.
   */
  | { t: "stop_thread"; id: number; threadId: string }
  /**
   * Changes the live run's session (session-state.ts): its mode (`session/set_mode`), a config option (the model
   * among them: `session/set_config_option`), its login (`authenticate` / `logout`). A mode or value the agent did
   * not offer is refused, as is a thread whose run is not live; the change reaches every client as `session_state`.
   */
  | { t: "set_mode"; id: number; threadId: string; modeId: string }
  | { t: "set_config"; id: number; threadId: string; configId: string; value: string | boolean }
  | { t: "login"; id: number; threadId: string; action: "login" | "logout" }
  | { t: "events"; id: number }
  /** The answer to the host's `serve` push numbered `ask`. */
  | { t: "served"; id: number; ask: number; answer: ServeAnswer }
  /**
   * Typed into (`data`) or resized (`size`) a hosted terminal: only from a client the terminal was shown to
   * (`terminal` push), while it serves terminals.
   */
  | { t: "terminal_input"; id: number; term: string; data?: string; size?: { cols: number; rows: number } }
  | ExecRequest
  | BestOfRequest
  /**
   * The asked client still works on `ask` (a write waiting on the user's merge view): sent every SERVE_ALIVE_MS,
   * it restarts the host's wait. An error reply: the host no longer waits for it (the client must not apply it).
   */
  | { t: "serving"; id: number; ask: number };

export type HostReply =
  | { t: "ok"; id: number }
  | HostErrorReply
  | { t: "hello"; id: number; protocol: number; version: string; pid: number }
  | DoorReply
  | EngineHostReply
  | { t: "status"; id: number; status: HostStatus }
  | { t: "started"; id: number; threadId: string }
  | { t: "exec_started"; id: number; exec: HostExecInfo }
  /** `attach`: the thread is held here; `pending` is a question waiting for an answer. */
  | { t: "attached"; id: number; threadId: string; live: boolean; pending?: PendingQuestion }
  /** `answer`: the option taken (`name`: its label as the record keeps it), and the question (id, the agent's title). */
  | { t: "answered"; id: number; optionId: string; name?: string; requestId: string; title: string }
  /** `steer`: `promptRequired` when no turn was running (nothing steered). */
  | { t: "steered"; id: number; outcome: string };

/** Pushed by the host, unasked. */
export type HostPush =
  | EngineHostPush
  | { t: "records"; threadId: string; from: number; records: ThreadRecord[] }
  | { t: "question"; question: PendingQuestion }
  /** A question or an elicitation was answered (`action`: an elicitation's), or withdrawn: its prompt closes. */
  | {
      t: "settled";
      threadId: string;
      requestId: string;
      optionId: string | null;
      by: string;
      action?: ElicitationAnswer["action"];
    }
  | { t: "elicitation"; elicitation: PendingElicitation }
  /** The thread's watchdog changed (to its attached clients and the event listeners). */
  | { t: "watchdog"; threadId: string; watchdog: HostWatchdog }
  /** The run's session state (modes, config options, slash commands, login): on every change, and on attach. */
  | { t: "session_state"; threadId: string; state: HostSessionState }
  /** The thread's run in the host is over (its last records were sent before this). */
  | { t: "ended"; threadId: string; exitCode: number; error?: string }
  | { t: "event"; event: HostEvent }
  /**
   * A session's status row changed (to the event listeners; state `ended`: no longer held), sent before what the
   * host announces of it: a listener's rows are never older than the events it heard (session-rows.ts).
   */
  | { t: "session"; session: HostSessionInfo }
  /** The host asks this (serving) client for a file effect of a session's agent; answered by `served`. */
  | { t: "serve"; ask: number; op: ServeOp }
  /**
   * A terminal of a session's agent runs in the host (a serving client shows it): `label` names the agent, as the
   * window names its own sessions' terminals; `recent` is its latest output (bounded) when it was shown after it
   * started (a client that attached or reloaded mid-run). Its output follows as `terminal_output`.
   */
  | {
      t: "terminal";
      term: string;
      sessionId: string;
      label: string;
      commandLine: string;
      cwd: string;
      recent?: string;
      /** The terminal is an exec run the host owns (`term` is its run id; `sessionId` is empty). */
      exec?: HostExecInfo;
    }
  /**
   * A hosted terminal's output (`data`), or its end (`exit`). `dropped`: the characters before `data` this client
   * was not sent (it fell behind; the host never waits for a client).
   */
  | { t: "terminal_output"; term: string; data?: string; dropped?: number; exit?: TerminalExitStatus };

export type HostMessage = HostReply | HostPush;
