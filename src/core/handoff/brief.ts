/**
 * The brief a thread hands to another agent: what the person asked for (the goal and the latest request), the
 * plan with each entry's status, the files the work touched, the last thing the agent said, and what was left
 * open (permission requests nobody answered, tool calls that never finished). Compact on purpose: the new agent
 * reads the files itself. The text is shown for editing first.
 *
 * "Changed" files come from the thread's edit ledger when it has one: what the turns changed on disk and is still
 * in effect (a restored turn's files, and a file a later turn put back as it was, are not changed); an edit the
 * agent proposed but never wrote is not a change. Without a ledger (older threads) the completed edit tool calls
 * stand in. A turn the person stopped is not "left open": its pending requests are named as not done.
 */
import { relative, isAbsolute } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { sameContent, type FileState } from "../ledger/content";
import type { LedgerView } from "../ledger/ledger-view";
import { isReviewable, restoredTurns } from "../ledger/restored";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadRecord } from "../model/records";

export type FileTouch = "changed" | "read";

export interface HandoffBrief {
  fromThreadId: string;
  fromAgent: string;
  title: string | null;
  cwd: string;
  /** The first request, and the latest one when the person asked for more since. */
  goal: string;
  latestRequest: string | null;
  plan: { content: string; status: string }[];
  files: { path: string; how: FileTouch[] }[];
  /** Commands the agent ran (execute tool calls), newest last, at most a few. */
  commands: string[];
  lastAssistantMessage: string | null;
  openQuestions: string[];
}

const MAX_TEXT = 2_000;
const MAX_FILES = 40;
const MAX_COMMANDS = 8;

const clip = (s: string, max = MAX_TEXT) => (s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s.trim());

function pathsOf(tc: Extract<ThreadRecord, { kind: "tool_call" }>["toolCall"]): string[] {
  const out = tc.locations.map((l) => l.path);
  for (const c of tc.content as acp.ToolCallContent[]) if (c.type === "diff") out.push(c.path);
  const input = tc.rawInput as Record<string, unknown> | undefined;
  for (const key of ["file_path", "filePath", "path", "absolute_path"]) {
    const v = input?.[key];
    if (typeof v === "string" && v.trim()) out.push(v);
  }
  return [...new Set(out.filter(Boolean))];
}

/** The files the ledger's turns and applies changed that are still changed now (paths as the ledger has them). */
function ledgerChanged(ledger: Pick<LedgerView, "ops">): string[] {
  const restored = restoredTurns(ledger);
  const net = new Map<string, { before: FileState | null; after: FileState | null }>();
  for (const op of ledger.ops) {
    if (!isReviewable(op) || restored.has(op.op)) continue;
    for (const f of op.files) {
      const seen = net.get(f.path);
      net.set(f.path, { before: seen ? seen.before : f.before, after: f.after });
    }
  }
  return [...net].filter(([, v]) => !sameContent(v.before, v.after)).map(([path]) => path);
}

/** `ledger`: the thread's edit ledger, when it has one (the source of "changed"). */
export function buildHandoffBrief(
  metadata: ThreadMetadata,
  records: readonly ThreadRecord[],
  ledger?: Pick<LedgerView, "ops">,
): HandoffBrief {
  const users: string[] = [];
  const files = new Map<string, Set<FileTouch>>();
  const commands: string[] = [];
  const tools = new Map<string, Extract<ThreadRecord, { kind: "tool_call" }>["toolCall"]>();
  let plan: HandoffBrief["plan"] = [];
  let assistant: { id: string; text: string } | undefined;
  const openPermissions: { toolCallId: string; text: string }[] = [];
  /** Requests cancelled in the turn under way: left open unless the person stopped that turn. */
  let cancelledInTurn: string[] = [];
  const stopped = new Set<string>();
  const fromLedger = ledger?.ops.some(isReviewable) ? ledgerChanged(ledger) : undefined;
  const show = (p: string) => {
    const rel = isAbsolute(p) ? relative(metadata.cwd, p) : p;
    return rel && !rel.startsWith("..") ? rel : p;
  };
  const touch = (p: string, how: FileTouch) => files.set(show(p), (files.get(show(p)) ?? new Set()).add(how));
  for (const p of fromLedger ?? []) touch(p, "changed");
  for (const r of records) {
    switch (r.kind) {
      case "user_message":
        users.push(r.text);
        break;
      case "agent_message":
        assistant =
          assistant?.id === r.messageId
            ? { id: r.messageId, text: assistant.text + r.text }
            : { id: r.messageId, text: r.text };
        break;
      case "plan":
        plan = r.entries.map((e) => ({ content: e.content, status: e.status }));
        break;
      case "tool_call": {
        const tc = r.toolCall;
        tools.set(tc.toolCallId, tc);
        const how = tc.kind === "read" || tc.kind === "search" ? "read" : tc.kind === "execute" ? "ran" : "changed";
        if (tc.kind === "execute" && tc.title) commands.push(tc.title);
        // with a ledger, it alone says what changed; without one, only an edit that completed did
        const counts = how === "read" || (how === "changed" && !fromLedger && tc.status === "completed");
        if (counts) for (const p of pathsOf(tc)) touch(p, how);
        break;
      }
      case "permission":
        if (r.decidedBy !== "cancelled") break;
        cancelledInTurn.push(r.toolCallId);
        openPermissions.push({ toolCallId: r.toolCallId, text: `${r.title} (${r.toolKind}): asked, never answered` });
        break;
      case "turn_end":
        if (r.stopReason === "cancelled") for (const id of cancelledInTurn) stopped.add(id);
        cancelledInTurn = [];
        break;
      default:
        break;
    }
  }
  const unfinished = [...tools.values()]
    .filter((t) => t.status === "pending" || t.status === "in_progress" || t.status === "cancelled")
    .map((t) =>
      stopped.has(t.toolCallId)
        ? `${t.title || t.kind} was not done (the turn was stopped)`
        : `${t.title || t.kind} was left ${t.status === "cancelled" ? "cancelled" : "unfinished"}`,
    );
  const first = users[0] ?? metadata.title ?? "";
  const last = users.at(-1);
  return {
    fromThreadId: metadata.threadId,
    fromAgent: metadata.agent.name,
    title: metadata.title,
    cwd: metadata.cwd,
    goal: clip(first),
    latestRequest: last && last !== first && !/^continue[.!]?$/i.test(last.trim()) ? clip(last) : null,
    plan,
    files: [...files.entries()].slice(0, MAX_FILES).map(([path, how]) => ({ path, how: [...how].sort() })),
    commands: commands.slice(-MAX_COMMANDS),
    lastAssistantMessage: assistant ? clip(assistant.text) : null,
    openQuestions: [...openPermissions.filter((p) => !stopped.has(p.toolCallId)).map((p) => p.text), ...unfinished],
  };
}

const STATUS_MARK: Record<string, string> = { completed: "[x]", in_progress: "[~]", pending: "[ ]" };

/** The brief as the first message to the new agent (markdown; the person may edit it before it is sent). */
export function renderHandoffBrief(b: HandoffBrief): string {
  const out: string[] = [
    `You are taking over a task from another coding agent (${b.fromAgent}) in this workspace. Continue the work;`,
    "read the files you need, do not redo what is done, and say what you will do first.",
    "",
    "## Goal",
    b.goal,
  ];
  if (b.latestRequest) out.push("", "## Latest request", b.latestRequest);
  if (b.plan.length) out.push("", "## Plan", ...b.plan.map((p) => `- ${STATUS_MARK[p.status] ?? "[ ]"} ${p.content}`));
  if (b.files.length)
    out.push("", "## Files touched so far", ...b.files.map((f) => `- ${f.path} (${f.how.join(", ")})`));
  if (b.commands.length) out.push("", "## Commands run", ...b.commands.map((c) => `- \`${c.replace(/`/g, "'")}\``));
  if (b.lastAssistantMessage) out.push("", `## Last message from ${b.fromAgent}`, b.lastAssistantMessage);
  if (b.openQuestions.length) out.push("", "## Left open", ...b.openQuestions.map((q) => `- ${q}`));
  out.push("", `(Handed off from ACP Threads thread ${b.fromThreadId}.)`);
  return out.join("\n");
}

/**
 * The new thread's title: "Handoff: <the source thread's title>" (its goal when it has none), one line, clipped.
 * A thread handed off again keeps one "Handoff:" prefix.
 */
export function handoffTitle(m: Pick<ThreadMetadata, "title" | "agent">, goal?: string, max = 80): string {
  const source = (m.title ?? goal ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(Handoff: )+/, "");
  const title = source ? `Handoff: ${source}` : `Handoff from ${m.agent.name}`;
  return title.length > max ? `${title.slice(0, max - 1).trimEnd()}…` : title;
}
