/**
 * The brief a thread hands to another agent: what the person asked for (the goal and the latest request), the
 * plan with each entry's status, the files the work touched (from the tool calls' locations and diffs), the last
 * thing the agent said, and what was left open (permission requests nobody answered, tool calls that never
 * finished). Compact on purpose: the new agent reads the files itself. The text is shown for editing first.
 */
import { relative, isAbsolute } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
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

export function buildHandoffBrief(metadata: ThreadMetadata, records: readonly ThreadRecord[]): HandoffBrief {
  const users: string[] = [];
  const files = new Map<string, Set<FileTouch>>();
  const commands: string[] = [];
  const tools = new Map<string, Extract<ThreadRecord, { kind: "tool_call" }>["toolCall"]>();
  let plan: HandoffBrief["plan"] = [];
  let assistant: { id: string; text: string } | undefined;
  const openPermissions: string[] = [];
  const show = (p: string) => {
    const rel = isAbsolute(p) ? relative(metadata.cwd, p) : p;
    return rel && !rel.startsWith("..") ? rel : p;
  };
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
        if (how !== "ran") for (const p of pathsOf(tc)) files.set(show(p), (files.get(show(p)) ?? new Set()).add(how));
        break;
      }
      case "permission":
        if (r.decidedBy === "cancelled") openPermissions.push(`${r.title} (${r.toolKind}): asked, never answered`);
        break;
      default:
        break;
    }
  }
  const unfinished = [...tools.values()]
    .filter((t) => t.status === "pending" || t.status === "in_progress" || t.status === "cancelled")
    .map((t) => `${t.title || t.kind} was left ${t.status === "cancelled" ? "cancelled" : "unfinished"}`);
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
    openQuestions: [...openPermissions, ...unfinished],
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
