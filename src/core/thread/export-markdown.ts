/**
 * A thread as a Markdown document people read on GitHub (`acp-threads threads export ID --format md`, the panel's
 * and the Sessions view's "Export as Markdown"): a header with the agent, workspace and dates; each prompt and
 * answer; tool calls as collapsed `<details>` with their command, diffs (fenced `diff`) and output; plans as task
 * lists; thoughts collapsed. Images are links to files: the caller copies the `assets` this returns next to the
 * Markdown file (`<name>.assets/`). Pure apart from reading nothing: the records and metadata come in, text and
 * the list of files to copy go out.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { commandOutput } from "../model/command-output";
import type { ContextRef } from "../model/context";
import type { ToolCallState } from "../model/events";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadRecord } from "../model/records";
import { capped, displayPath, escapeHtml, escapeInline, fence, linkTarget, unifiedFileDiff } from "./markdown-blocks";

/** A file the Markdown links to: copy `from` (a stored image) or write `data` (an inline one) as `name`. */
export interface ExportAsset {
  name: string;
  from?: string;
  data?: Uint8Array;
}

export interface MarkdownExport {
  markdown: string;
  assets: ExportAsset[];
}

export interface MarkdownOptions {
  /** Where the thread keeps its images (`<threadsDir>/<threadId>.assets`). */
  assetsDir: string;
  /**
   * The folder the images are copied to, relative to the Markdown file (`notes.assets`). Absent (printing to
   * stdout): prompt images link to the stored files and images a tool returned inline are left out.
   */
  assetsLink?: string;
}

const INPUT_CHARS = 8 * 1024;

/** `2026-01-01 09:00 UTC`: the same on every machine that exports the thread. */
function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
const clock = (iso: string) => when(iso).slice(11);

class Writer {
  readonly out: string[] = [];
  readonly assets = new Map<string, ExportAsset>();
  constructor(
    private readonly meta: ThreadMetadata,
    private readonly opts: MarkdownOptions,
  ) {}

  block(text: string): void {
    this.out.push(text.replace(/\n+$/, ""), "");
  }

  /** A link to a stored prompt image, or undefined when the ref names no kept file. */
  storedImage(ref: ContextRef): string | undefined {
    if (!ref.asset || /[\\/]/.test(ref.asset)) return undefined;
    const from = join(this.opts.assetsDir, ref.asset);
    if (!this.opts.assetsLink) return `![${escapeInline(ref.label)}](${linkTarget(from.split("\\").join("/"))})`;
    this.assets.set(ref.asset, { name: ref.asset, from });
    return `![${escapeInline(ref.label)}](${linkTarget(`${this.opts.assetsLink}/${ref.asset}`)})`;
  }

  /** A link to an image a tool returned inline (base64), written once per distinct image. */
  inlineImage(base64: string, mimeType: string, label: string): string {
    if (!this.opts.assetsLink) return `*(${escapeInline(label)}: an image, exported only with --out)*`;
    const data = Buffer.from(base64, "base64");
    const ext = (/^image\/([a-z0-9.+-]+)$/i.exec(mimeType)?.[1] ?? "bin").replace("jpeg", "jpg").replace(/\W.*/, "");
    const name = `${createHash("sha256").update(data).digest("hex").slice(0, 16)}.${ext}`;
    this.assets.set(name, { name, data });
    return `![${escapeInline(label)}](${linkTarget(`${this.opts.assetsLink}/${name}`)})`;
  }

  path(p: string): string {
    return displayPath(p, this.meta.cwd);
  }
}

function header(w: Writer, meta: ThreadMetadata, records: readonly ThreadRecord[]): void {
  const info = records.flatMap((r) => (r.kind === "session_open" && r.agentInfo ? [r.agentInfo] : [])).at(-1);
  const agent = [
    `${escapeInline(meta.agent.name)} (\`${meta.agent.id}\`)`,
    info ? `${escapeInline(info.name)}${info.version ? ` ${escapeInline(info.version)}` : ""}` : "",
    meta.model ? `model \`${meta.model}\`` : "",
  ].filter(Boolean);
  const rows: [string, string][] = [
    ["Agent", agent.join(" · ")],
    ["Workspace", `\`${meta.cwd}\`${meta.gitHead ? ` at \`${meta.gitHead.slice(0, 10)}\`` : ""}`],
    ["Started", when(meta.createdAt)],
    ["Last activity", when(meta.lastActivity)],
    ["Turns", String(meta.counters.turns)],
    ["Thread", `\`${meta.threadId}\`${meta.agentSessionId ? ` (agent session \`${meta.agentSessionId}\`)` : ""}`],
  ];
  w.block(`# ${escapeInline(meta.title ?? "Untitled thread")}`);
  w.block(["| | |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, "\\|")} |`)].join("\n"));
}

function toolBody(w: Writer, tc: ToolCallState): string[] {
  const parts: string[] = [];
  const co = commandOutput(tc);
  if (co.command) parts.push(fence(co.command, "sh"));
  let shown = !!co.command;
  for (const c of tc.content) {
    if (c.type === "diff") {
      const path = w.path(c.path);
      const diff = unifiedFileDiff(path, c.oldText, c.newText);
      parts.push(diff ? fence(capped(diff), "diff") : `\`${path}\`: no change`);
      shown = true;
    } else if (c.type === "content") {
      const b = c.content;
      if (b.type === "image") parts.push(w.inlineImage(b.data, b.mimeType, "image"));
      else if (b.type === "resource_link") parts.push(`[${escapeInline(b.title ?? b.name)}](${b.uri})`);
      else if (b.type === "resource" && "text" in b.resource) parts.push(fence(capped(b.resource.text)));
      else continue;
      shown = true;
    }
  }
  if (co.output !== undefined && co.output !== "") {
    const exit = co.exitCode != null ? ` (exit ${co.exitCode})` : co.signal ? ` (${co.signal})` : "";
    parts.push(`Output${exit}:`, fence(capped(co.output)));
  } else if (!shown && tc.rawInput !== undefined) {
    parts.push("Input:", fence(capped(JSON.stringify(tc.rawInput, null, 2), INPUT_CHARS), "json"));
  }
  return parts;
}

/** Whether the parent chain from `from` reaches `target` (a cycle: such calls stay top-level, never lost). */
function reaches(calls: Map<string, ToolCallState>, from: string, target: string): boolean {
  let at: string | undefined = from;
  for (let depth = 0; at !== undefined && depth < 64; depth++) {
    if (at === target) return true;
    at = calls.get(at)?.parentToolCallId;
  }
  return at !== undefined;
}

/** Tool calls nested under the subagent (Agent / Task) call they ran in, by parent id: only known parents. */
function subagentChildren(records: readonly ThreadRecord[]): Map<string, ToolCallState[]> {
  const last = new Map<string, ToolCallState>();
  for (const r of records) if (r.kind === "tool_call") last.set(r.toolCall.toolCallId, r.toolCall);
  const children = new Map<string, ToolCallState[]>();
  for (const tc of last.values()) {
    const parent = tc.parentToolCallId;
    if (!parent || !last.has(parent) || reaches(last, parent, tc.toolCallId)) continue;
    children.set(parent, [...(children.get(parent) ?? []), tc]);
  }
  return children;
}

/** A tool call as one Markdown block; a subagent's calls go inside its `<details>`, indented as a list. */
function toolCallBlock(w: Writer, tc: ToolCallState, nested: Map<string, ToolCallState[]>, seen: Set<string>): string {
  seen.add(tc.toolCallId);
  const where = tc.locations.map((l) => w.path(l.path)).filter((p) => p && !tc.title.includes(p));
  const title = `${escapeHtml(tc.title || tc.kind)}${where.length ? ` <code>${escapeHtml(where.join(", "))}</code>` : ""}`;
  const body = toolBody(w, tc);
  const kids = (nested.get(tc.toolCallId) ?? []).filter((c) => !seen.has(c.toolCallId));
  if (kids.length) {
    body.push(`Subagent work (${kids.length} tool call${kids.length === 1 ? "" : "s"}):`);
    for (const kid of kids) {
      const block = toolCallBlock(w, kid, nested, seen);
      body.push(`  - ${block.replace(/^- /, "").replace(/\n(?=.)/g, "\n    ")}`);
    }
  }
  const line = `Tool: <b>${title}</b> · ${escapeHtml(tc.kind)} · ${escapeHtml(tc.status)}`;
  if (!body.length) return `- ${line}`;
  return ["<details>", `<summary>${line}</summary>`, "", ...body.flatMap((p) => [p, ""]), "</details>"].join("\n");
}

function userMessage(w: Writer, r: Extract<ThreadRecord, { kind: "user_message" }>): void {
  w.block(`### You · ${clock(r.ts)}`);
  if (r.text.trim()) w.block(r.text);
  const images = (r.context ?? []).flatMap((c) => (c.kind === "image" ? [w.storedImage(c)] : [])).filter(Boolean);
  if (images.length) w.block(images.join("\n"));
  const mentions = (r.context ?? []).filter((c) => c.kind !== "image");
  if (mentions.length)
    w.block(`Context: ${mentions.map((c) => `\`${escapeHtml(c.path ? w.path(c.path) : c.label)}\``).join(", ")}`);
}

/** Consecutive records of one streamed message (same kind and messageId) joined, as conversation.ts does. */
function joined(records: readonly ThreadRecord[], i: number): { text: string; next: number } {
  const first = records[i] as Extract<ThreadRecord, { kind: "agent_message" | "thought" }>;
  let text = first.text;
  let j = i + 1;
  for (; j < records.length; j++) {
    const r = records[j];
    if (r.kind !== first.kind || r.messageId !== first.messageId) break;
    text += r.text;
  }
  return { text, next: j };
}

export function threadToMarkdown(
  meta: ThreadMetadata,
  records: readonly ThreadRecord[],
  opts: MarkdownOptions,
): MarkdownExport {
  const w = new Writer(meta, opts);
  header(w, meta, records);
  const nested = subagentChildren(records);
  const isNested = (tc: ToolCallState) => !!tc.parentToolCallId && nested.has(tc.parentToolCallId);
  let speaker: "you" | "agent" | undefined;
  const agentHeading = (ts: string) => {
    if (speaker !== "agent") w.block(`### ${escapeInline(meta.agent.name)} · ${clock(ts)}`);
    speaker = "agent";
  };
  for (let i = 0; i < records.length;) {
    const r = records[i];
    if (r.kind === "agent_message" || r.kind === "thought") {
      const { text, next } = joined(records, i);
      i = next;
      agentHeading(r.ts);
      if (r.kind === "agent_message") w.block(text);
      else if (text.trim())
        w.block(
          ["<details>", "<summary>Thinking</summary>", "", text.replace(/\n+$/, ""), "", "</details>"].join("\n"),
        );
      continue;
    }
    i++;
    switch (r.kind) {
      case "user_message":
        userMessage(w, r);
        speaker = "you";
        break;
      case "tool_call":
        if (isNested(r.toolCall)) break; // written inside its subagent's call
        agentHeading(r.ts);
        w.block(toolCallBlock(w, r.toolCall, nested, new Set()));
        break;
      case "plan":
        agentHeading(r.ts);
        w.block(
          ["**Plan**", "", ...r.entries.map((e) => `- [${e.status === "completed" ? "x" : " "}] ${e.content}`)].join(
            "\n",
          ),
        );
        break;
      case "permission":
        agentHeading(r.ts);
        w.block(
          `> Permission for *${escapeInline(r.title)}*: ${r.optionKind ?? "cancelled"}${r.decidedBy === "cancelled" ? "" : ` (by ${r.decidedBy})`}`,
        );
        break;
      case "compaction":
        w.block(
          [
            "<details>",
            `<summary>${r.system ? "Instructions" : "Context compacted"} · ${clock(r.ts)}</summary>`,
            "",
            r.summary.replace(/\n+$/, ""),
            "",
            "</details>",
          ].join("\n"),
        );
        break;
      case "exec_output":
        agentHeading(r.ts);
        w.block(`${r.stream}${r.truncated ? ` (excerpt of ${r.bytes.toLocaleString("en-US")} bytes)` : ""}:`);
        w.block(fence(capped(r.text)));
        break;
      case "exec_exit":
        w.block(`*Exited ${r.signal ? `on ${r.signal}` : `with code ${r.exitCode}`}*`);
        break;
      case "error":
        w.block(`> **Error:** ${r.message.replace(/\n/g, "\n> ")}`);
        break;
      case "turn_end":
        if (r.stopReason !== "end_turn") w.block(`*Turn ended: ${r.stopReason}*`);
        break;
      default:
        break;
    }
  }
  return { markdown: w.out.join("\n").replace(/\n*$/, "\n"), assets: [...w.assets.values()] };
}
