/**
 * Messages between the thread panel's host side (src/vscode/thread-panel.ts) and its webview
 * (src/webview/thread/main.ts). Declared once, imported by both. Inbound webview messages are untrusted:
 * the host accepts only what `parseWebviewMessage` lets through.
 */
import type { TurnChanges } from "../../core/engine/requests-review";
import type { RuntimeEvent } from "../../core/model/events";
import { fields, str } from "../shared/guards";
import { parseOpsAction, type OpsAction, type OpsView } from "./ops/protocol";

export type { OpsAction, OpsLink, OpsView } from "./ops/protocol";
import { parseComposerMessage, type ComposerHostMessage, type ComposerMessage } from "./composer/protocol";

export type {
  AgentOption,
  CompletionItem,
  ComposerHostMessage,
  ComposerMessage,
  ComposerState,
  QueuedPrompt,
  WirePart,
} from "./composer/protocol";
export { partsText } from "./composer/protocol";

export const THREAD_VIEW_TYPE = "acpThreads.thread";

/** `draft`: a new thread's panel before its agent starts (no "Ready": nothing runs yet). */
export type LiveStatus =
  "draft" | "starting" | "working" | "waiting_permission" | "idle" | "failed" | "closed" | "readonly";

export interface ThreadHeader {
  threadId: string;
  title: string;
  agent: string;
  cwd: string;
  sessionId?: string;
  /** Session mode keeps the agent for follow-ups; run mode has no input box while it runs. */
  acceptsInput: boolean;
  /**
   * A stored thread of an agent session: when no session runs (a past thread, a finished or failed one), a prompt
   * typed in the box resumes it (#37, as in Zed) instead of the box being hidden.
   */
  resumable?: boolean;
  /**
   * A session runs for this panel (the window's own or the thread host's): while a turn runs, Cancel shows even
   * where the box does not (a "Run once" thread takes no follow-ups but can be stopped).
   */
  cancels?: boolean;
  /** The agent runs in the OS sandbox (#34): the header says "sandboxed". */
  sandboxed?: boolean;
}

export interface PermissionView {
  requestId: string;
  /** The tool call the request is about, so the panel shows the prompt on that call's card. */
  toolCallId?: string;
  title: string;
  kind: string;
  options: { optionId: string; name: string; kind: string }[];
  /** A proposed edit exists, so a "Review" button can open VS Code's diff editor. */
  reviewPath?: string;
  /** The request's paths outside the session's roots: the card marks it "outside the workspace". */
  outside?: string[];
}

export interface PickerChoice {
  value: string;
  name: string;
  description?: string;
}

export interface PickerView {
  /** The legacy `modes` list, only when the agent has no `mode` config option (one mode picker, never two). */
  modes?: { currentModeId: string; available: { id: string; name: string; description?: string }[] } | null;
  configOptions?: { id: string; name: string; description?: string; currentValue: string; options: PickerChoice[] }[];
  /** Who decides what needs permission: the active agent mode, and whether it approves actions on its own. */
  permissions?: {
    mode: string;
    description?: string;
    /** The agent's mode approves (some) edits or commands itself: our permission policy is not asked for them. */
    agentDecides: boolean;
    /** The mode the agent started in, when we switched it to follow the permission setting. */
    switchedFrom?: string;
  };
}

/** One turn's recorded file changes (edit ledger), shown as "N files changed" under the turn. */
/** A turn's (or a worktree apply's) changed-files row, as the engine's `review.turnChanges` gives it. */
export type TurnChangesView = TurnChanges;

export type HostMessage =
  | {
      type: "init";
      header: ThreadHeader;
      status: LiveStatus;
      /** Epoch ms when the running turn started, when one is running. */
      since?: number;
      events: RuntimeEvent[];
      scrollToEnd: boolean;
      focusEvent?: number;
    }
  | { type: "events"; events: RuntimeEvent[] }
  /** `since`: epoch ms when the current turn started (the panel shows the elapsed time while working). */
  /** `sandboxed`: the session's sandbox is known once it starts (#34). */
  | { type: "status"; status: LiveStatus; detail?: string; since?: number; sandboxed?: boolean }
  | { type: "permission"; prompt: PermissionView }
  /** `by`: another client of the thread host answered first (its name, shown as text). */
  | { type: "permissionResolved"; requestId: string; optionId: string | null; by?: string }
  | {
      type: "terminalOutput";
      terminalId: string;
      data: string;
      exit?: { exitCode: number | null; signal: string | null };
    }
  /** The thread was renamed (here or in the sessions view). */
  | { type: "title"; title: string }
  /** The thread's usage figure, the status bar's words (usage-status.ts `describeReading`); "" for none. */
  | { type: "usage"; text: string }
  /** The agent's login state (`_auth/status_update`) and the action that fits it; "" when it reported none. */
  | { type: "login"; text: string; action?: LoginAction }
  | { type: "pickers"; pickers: PickerView }
  | { type: "turnChanges"; turns: TurnChangesView[] }
  /** Watchdog, read-only holder and handoff links (ops/protocol.ts). */
  | { type: "ops"; ops: OpsView }
  | ComposerHostMessage;

export type LoginAction = "login" | "logout";

/**
 * After each redraw (tests, diagnostics): how many entries the thread has, how many are in the DOM, and the "answered
 * by …" lines its permission cards in the DOM show, in order, and the whole text of each answered permission line.
 */
export interface RenderedView {
  entries: number;
  inDom: number;
  answeredBy: string[];
  answered: string[];
}

export type WebviewMessage =
  | { type: "ready" }
  | { type: "prompt"; text: string }
  | { type: "cancel" }
  /** `feedback`: text for the agent, sent as the next message after a "No, provide feedback" answer. */
  | { type: "permission"; requestId: string; optionId: string | null; feedback?: string }
  | { type: "review"; requestId: string }
  /** `what`: the words of the host's "… copied" notice (a code block's copy says "Code"). */
  | { type: "copyText"; text: string; what?: "message" }
  | { type: "insertCode"; text: string }
  /** Apply a code block to `path` (relative to the thread's folder) or to a file the user picks. */
  | { type: "applyCode"; text: string; path?: string }
  | { type: "rename"; title: string }
  /** The header's "Log in…" / "Log out" on the agent's login state. */
  | { type: "login"; action: LoginAction }
  | { type: "openLocation"; path: string; line?: number }
  | { type: "openLink"; href: string }
  | { type: "setMode"; modeId: string }
  | { type: "setConfig"; configId: string; value: string }
  | { type: "reviewTurn"; turn: number | { op: string } }
  /** "Fork from here": message `message` (1-based, user and agent messages) whose text is `text`. */
  | { type: "forkFrom"; message: number; text: string }
  /** "Edit and resend" (rewind) on prompt `message` (numbered as forkFrom's) whose text is `text`. */
  | { type: "rewindFrom"; message: number; text: string }
  | { type: "restoreTurn"; turn: number | { op: string } }
  /** "Keep all": every change of the turn (or of the apply `{op}`) still to review is kept. */
  | { type: "keepTurn"; turn: number | { op: string } }
  /** "Undo restore" on a restored turn's row: restore to before that restore (op id). */
  | { type: "undoRestore"; op: string }
  | ({ type: "rendered" } & RenderedView)
  | OpsAction
  | ComposerMessage;

/** Returns the message if it has exactly a known shape, else `undefined` (the host ignores it). */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  const m = fields(raw);
  switch (m?.type) {
    case "ready":
    case "cancel":
      return { type: m.type };
    case "prompt":
      return str(m.text) && m.text.trim() ? { type: "prompt", text: m.text } : undefined;
    case "permission": {
      if (!(str(m.requestId, 200) && (m.optionId === null || str(m.optionId, 200)))) return undefined;
      const base = { type: "permission" as const, requestId: m.requestId, optionId: m.optionId as string | null };
      if (m.feedback === undefined) return base;
      return str(m.feedback, 100_000) && m.feedback.trim() ? { ...base, feedback: m.feedback } : undefined;
    }
    case "copyText":
      if (!str(m.text, 5_000_000) || (m.what !== undefined && m.what !== "message")) return undefined;
      return m.what ? { type: "copyText", text: m.text, what: m.what } : { type: "copyText", text: m.text };
    case "insertCode":
      return str(m.text, 5_000_000) ? { type: m.type, text: m.text } : undefined;
    case "applyCode":
      if (!str(m.text, 5_000_000)) return undefined;
      if (m.path === undefined) return { type: "applyCode", text: m.text };
      return str(m.path, 4096) && m.path.trim() ? { type: "applyCode", text: m.text, path: m.path } : undefined;
    case "login":
      return m.action === "login" || m.action === "logout" ? { type: "login", action: m.action } : undefined;
    case "rename":
      return str(m.title, 500) && m.title.trim() ? { type: "rename", title: m.title.trim() } : undefined;
    case "review":
      return str(m.requestId, 200) ? { type: "review", requestId: m.requestId } : undefined;
    case "openLocation":
      if (!str(m.path, 4096)) return undefined;
      if (m.line !== undefined && !(Number.isInteger(m.line) && (m.line as number) >= 0)) return undefined;
      return { type: "openLocation", path: m.path, line: m.line as number | undefined };
    case "openLink":
      return str(m.href, 4096) && /^(https?:\/\/|mailto:)/i.test(m.href)
        ? { type: "openLink", href: m.href }
        : undefined;
    case "setMode":
      return str(m.modeId, 200) ? { type: "setMode", modeId: m.modeId } : undefined;
    case "setConfig":
      return str(m.configId, 200) && str(m.value, 1000)
        ? { type: "setConfig", configId: m.configId, value: m.value }
        : undefined;
    case "undoRestore":
      return str(m.op, 200) && /^restore-[a-z0-9]+$/.test(m.op) ? { type: "undoRestore", op: m.op } : undefined;
    case "reviewTurn":
    case "restoreTurn":
    case "keepTurn": {
      if (Number.isInteger(m.turn) && (m.turn as number) >= 1) return { type: m.type, turn: m.turn as number };
      const op = fields(m.turn)?.op;
      return str(op, 200) && /^(turn-\d+|apply-[a-z0-9]+)$/.test(op) ? { type: m.type, turn: { op } } : undefined;
    }
    case "forkFrom":
    case "rewindFrom":
      return Number.isInteger(m.message) && (m.message as number) >= 1 && str(m.text)
        ? { type: m.type, message: m.message as number, text: m.text }
        : undefined;
    case "rendered":
      return Number.isInteger(m.entries) && Number.isInteger(m.inDom) && texts(m.answeredBy) && texts(m.answered)
        ? {
            type: "rendered",
            entries: m.entries as number,
            inDom: m.inDom as number,
            answeredBy: m.answeredBy,
            answered: m.answered,
          }
        : undefined;
    case "ops":
      return parseOpsAction(m);
    default:
      return m ? parseComposerMessage(m) : undefined;
  }
}

/** The `rendered` report's lists of texts: at most 1000, each at most 1000 characters. */
const texts = (v: unknown): v is string[] => Array.isArray(v) && v.length <= 1000 && v.every((a) => str(a, 1000));
