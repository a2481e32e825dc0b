/**
 * Messages of the prompt box (composer) between the thread panel's webview and the host, declared once and
 * imported by both. They ride the thread panel's channel; `parseComposerMessage` is the host's gate for them
 * (inbound webview messages are untrusted: shapes and sizes are checked, paths are checked again by the host).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { parseContextRef, type ContextRef } from "../../../core/model/context";
import { fields, str, type Fields } from "../../shared/guards";
import type { RewindMode } from "../../../core/handoff/rewind-point";

/** A piece of a composed prompt on the wire. Images travel as base64 (with an optional JPEG/PNG preview). */
export type WirePart =
  | { type: "text"; text: string }
  | { type: "context"; ref: ContextRef; content?: string }
  | { type: "image"; name: string; data: string; thumb?: string };

export type CompletionGroup = "selection" | "problems" | "editors" | "files" | "symbols" | "threads" | "commands";

export interface CompletionItem {
  group: CompletionGroup;
  label: string;
  /** Dim text after the label: a folder, a description, an input hint. */
  detail?: string;
  /** Codicon name. */
  icon: string;
  /** `@` items: the mention to insert (with captured text for selections and diagnostics). */
  ref?: ContextRef;
  content?: string;
  /** `/` items: the command and its input hint. */
  command?: { name: string; hint?: string };
  /** Indexes of `label` characters that matched the query. */
  match?: number[];
}

export interface QueuedPrompt {
  id: string;
  parts: WirePart[];
  /** The text as the transcript will show it (`@label` for chips). */
  text: string;
}

/**
 * The picker's "Custom command line": it runs the line typed in its own field, so it is only ever picked by hand
 * in the panel (never preselected from the last pick, issue #27).
 */
export const CUSTOM_EXEC_ID = "exec:custom";

/** An agent the new-thread picker offers. */
export interface AgentOption {
  id: string;
  label: string;
  /** A version, "offline demo", "exec in a terminal". */
  detail?: string;
  /** ACP agent (default) or an agent CLI run in a terminal. */
  kind: "acp" | "exec";
  available: boolean;
  /** What to install when it is missing. */
  hint?: string;
  /** Installed from the ACP Registry: the newer version the registry offers, if any. */
  update?: string;
}

export interface ComposerState {
  /** The agent's prompt capabilities (null before the session reports them). */
  caps?: Pick<acp.PromptCapabilities, "image" | "embeddedContext"> | null;
  /** Agent name for messages ("Codex does not accept images"). */
  agentName?: string;
  commands?: { name: string; description: string; hint?: string }[];
  queue?: QueuedPrompt[];
  /** Why "Send now" cannot steer a queued message into the running turn (null: it can). */
  steerBlocked?: string | null;
  /** A new thread that has no agent yet: the picker and the folder choice. */
  /** `checked`: doctor's pass is in (versions, problems); before it the list only says what is on PATH. */
  draft?: {
    agents: AgentOption[];
    agentId?: string;
    folders: string[];
    folder?: string;
    checked?: boolean;
    /** How the permission setting (acpThreads.permissionMode) reads; follows the setting while the panel is open. */
    policy?: string;
    /**
     * The "sandboxed" toggle's default (#34): `on` (acpThreads.sandbox.mode), `unattended` (a session in a new worktree
     * is sandboxed by default, acpThreads.sandbox.unattended).
     */
    sandbox?: { on: boolean; unattended: boolean };
    /** The panel of "Best of N…" (#37): its "best of N" box starts checked. */
    bestOf?: boolean;
  } | null;
}

export type ComposerHostMessage =
  | { type: "composer"; state: ComposerState }
  | { type: "completions"; seq: number; items: CompletionItem[]; done: boolean }
  /** Put context into the box (context menus, dropped files) and focus it. */
  | {
      type: "insertContext";
      items: { ref: ContextRef; content?: string }[];
      images?: { name: string; data: string; thumb?: string }[];
      text?: string;
    }
  /** Load a prompt into the box for editing (a queued prompt taken back; `rewind`: an Edit and resend given back). */
  | { type: "editPrompt"; parts: WirePart[]; rewind?: RewindEdit }
  | { type: "composerNotice"; message: string; severity: "error" | "info" }
  /** Thumbnails (data URLs) of image assets shown in the transcript, by asset name. */
  | { type: "thumbs"; thumbs: Record<string, string> }
  /** A new thread's folder changed (picked in its panel, #35): the header names it. */
  | { type: "draftFolder"; cwd: string };

export type ComposerMessage =
  /** Send (or queue while a turn runs). A draft thread also names the agent, the folder and the run mode. */
  /** A custom command line (agent `exec:custom`) carries its own `command`; the prompt text is never run. */
  | {
      type: "send";
      parts: WirePart[];
      agentId?: string;
      folder?: string;
      mode?: "session" | "run";
      command?: string;
      /** Start in a new git worktree (#25). */
      worktree?: boolean;
      /** "Edit and resend" of prompt `rewind.message` (#37): the rewind (commands/rewind.ts) with these parts. */
      rewind?: RewindEdit & { mode: RewindMode };
      /** The "sandboxed" toggle, when the user changed it (#34); absent: the settings decide. */
      sandbox?: boolean;
      /** A new thread's "best of N" box (#37): the prompt is the task of a Best of N, not a session's. */
      bestOf?: true;
    }
  | { type: "complete"; seq: number; trigger: "@" | "/"; query: string }
  | { type: "queueRemove"; id: string }
  | { type: "queueTake"; id: string }
  /** "Send now": steer the queued message into the running turn (it stays queued when the agent cannot). */
  | { type: "queueSteer"; id: string }
  | { type: "openContext"; ref: ContextRef }
  | { type: "dropUris"; uris: string[] }
  | { type: "pickAgent"; agentId: string }
  /** A new thread's folder picker (multi-root): the folder the person picked. */
  | { type: "pickFolder"; folder: string }
  /** The picker's "Add agent…": the registry's QuickPick. */
  | { type: "addAgent" }
  /** A "Not installed" row of the agent picker: what can be done with that agent (#37). */
  | { type: "agentActions"; agentId: string };

/** The prompt an "Edit and resend" edits: its number (as the transcript's forkFrom) and its text as sent. */
export interface RewindEdit {
  message: number;
  text: string;
}

const REWIND_MODES: readonly RewindMode[] = ["both", "conversation", "code"];

function parseRewind(v: unknown): (RewindEdit & { mode: RewindMode }) | undefined {
  const r = fields(v);
  if (!r || !Number.isInteger(r.message) || (r.message as number) < 1 || !str(r.text, MAX_TEXT)) return undefined;
  if (!REWIND_MODES.includes(r.mode as RewindMode)) return undefined;
  return { message: r.message as number, text: r.text, mode: r.mode as RewindMode };
}

const MAX_PARTS = 200;
const MAX_TEXT = 1_000_000;
/** Base64 of a 5 MB image plus slack; the host checks the decoded size again. */
const MAX_IMAGE_B64 = 7_200_000;

const int = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** A context ref from the webview: see core/model/context. */
export const parseRef = parseContextRef;

function parsePart(v: unknown): WirePart | undefined {
  const p = fields(v);
  switch (p?.type) {
    case "text":
      return str(p.text, MAX_TEXT) ? { type: "text", text: p.text } : undefined;
    case "context": {
      const ref = parseRef(p.ref);
      if (!ref || (p.content !== undefined && !str(p.content, MAX_TEXT))) return undefined;
      return { type: "context", ref, ...(p.content !== undefined ? { content: p.content as string } : {}) };
    }
    case "image":
      if (!str(p.name, 300) || !str(p.data, MAX_IMAGE_B64)) return undefined;
      if (p.thumb !== undefined && !str(p.thumb, 400_000)) return undefined;
      return { type: "image", name: p.name, data: p.data, ...(p.thumb ? { thumb: p.thumb as string } : {}) };
    default:
      return undefined;
  }
}

export function parseParts(v: unknown): WirePart[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_PARTS) return undefined;
  const parts = v.map(parsePart);
  return parts.every((p): p is WirePart => !!p) ? parts : undefined;
}

/** The composer's messages from untrusted input; undefined for anything else. */
export function parseComposerMessage(m: Fields): ComposerMessage | undefined {
  switch (m.type) {
    case "send": {
      const command = m.command;
      if (command !== undefined && !(str(command, 10_000) && command.trim())) return undefined;
      // a custom command line may come with an empty prompt box (its title is the command)
      const parts = command !== undefined && Array.isArray(m.parts) && !m.parts.length ? [] : parseParts(m.parts);
      if (!parts) return undefined;
      if (m.agentId !== undefined && !str(m.agentId, 200)) return undefined;
      if (m.folder !== undefined && !str(m.folder, 4096)) return undefined;
      if (m.mode !== undefined && m.mode !== "session" && m.mode !== "run") return undefined;
      if (m.worktree !== undefined && typeof m.worktree !== "boolean") return undefined;
      const rewind = m.rewind === undefined ? undefined : parseRewind(m.rewind);
      if (m.rewind !== undefined && (!rewind || command !== undefined || m.agentId !== undefined)) return undefined;
      if (m.sandbox !== undefined && typeof m.sandbox !== "boolean") return undefined;
      if (m.bestOf !== undefined && (m.bestOf !== true || rewind || command !== undefined)) return undefined;
      return {
        type: "send",
        parts,
        ...(m.agentId !== undefined ? { agentId: m.agentId as string } : {}),
        ...(m.folder !== undefined ? { folder: m.folder as string } : {}),
        ...(m.mode !== undefined ? { mode: m.mode as "session" | "run" } : {}),
        ...(command !== undefined ? { command: command as string } : {}),
        ...(m.worktree === true ? { worktree: true } : {}),
        ...(rewind ? { rewind } : {}),
        ...(typeof m.sandbox === "boolean" ? { sandbox: m.sandbox } : {}),
        ...(m.bestOf === true ? { bestOf: true as const } : {}),
      };
    }
    case "complete":
      return int(m.seq) && (m.trigger === "@" || m.trigger === "/") && str(m.query, 500)
        ? { type: "complete", seq: m.seq, trigger: m.trigger, query: m.query }
        : undefined;
    case "queueRemove":
    case "queueTake":
    case "queueSteer":
      return str(m.id, 100) ? { type: m.type, id: m.id } : undefined;
    case "openContext": {
      const ref = parseRef(m.ref);
      return ref ? { type: "openContext", ref } : undefined;
    }
    case "dropUris":
      return Array.isArray(m.uris) && m.uris.length <= 100 && m.uris.every((u) => str(u, 4096))
        ? { type: "dropUris", uris: m.uris as string[] }
        : undefined;
    case "pickAgent":
      return str(m.agentId, 200) ? { type: "pickAgent", agentId: m.agentId } : undefined;
    case "pickFolder":
      return str(m.folder, 4096) ? { type: "pickFolder", folder: m.folder } : undefined;
    case "addAgent":
      return { type: "addAgent" };
    case "agentActions":
      return str(m.agentId, 200) ? { type: "agentActions", agentId: m.agentId } : undefined;
    default:
      return undefined;
  }
}

/** The transcript text of a composed prompt: text as typed, each chip as `@label` (images are not in the text). */
export function partsText(parts: readonly WirePart[]): string {
  const text = parts.map((p) => (p.type === "text" ? p.text : p.type === "context" ? `@${p.ref.label}` : "")).join("");
  const images = parts.filter((p) => p.type === "image").length;
  return images ? `${text}${text ? " " : ""}[${images} image${images > 1 ? "s" : ""}]` : text;
}
