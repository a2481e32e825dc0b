/** `threads show ID`: the thread's metadata and conversation (or the raw records with --format json). */
import { EXIT } from "../io";
import { conversation } from "../../core/thread/conversation";
import { forkedFrom } from "../../core/handoff/lineage";
import { localEngine } from "../../core/engine/local";
import { clock, writeJson, type SubContext } from "./common";

const LABEL = {
  user: "you",
  assistant: "agent",
  thought: "thinking",
  tool: "tool",
  compaction: "summary",
  error: "error",
} as const;

export async function show(ctx: SubContext): Promise<number> {
  const { io, store } = ctx;
  const read = await localEngine({ store }).call({ op: "threads.read", threadId: ctx.args[0]! });
  if (ctx.json) {
    writeJson(io, { metadata: read.metadata, records: read.records, warnings: read.warnings });
    return EXIT.ok;
  }
  const m = read.metadata;
  io.stdout.write(`${m.title ?? "(untitled)"}\n`);
  io.stdout.write(`id ${m.threadId}  agent ${m.agent.id}  ${m.mode}  status ${m.status}  ${m.counters.turns} turns\n`);
  io.stdout.write(`cwd ${m.cwd}${m.gitHead ? `  at ${m.gitHead.slice(0, 10)}` : ""}  created ${m.createdAt}\n`);
  if (m.transcriptPath) io.stdout.write(`transcript ${m.transcriptPath}\n`);
  if (m.worktree)
    io.stdout.write(`worktree ${m.worktree.path}  of ${m.worktree.repo}  base ${m.worktree.base.slice(0, 10)}\n`);
  // the folders its sessions could write, when they reached beyond its cwd (a multi-root window, a hosted run's roots)
  if (m.folders?.length) io.stdout.write(`folders ${m.folders.join(", ")}\n`);
  for (const w of read.warnings) io.stderr.write(`warning: ${w.message}\n`);
  const from = forkedFrom(m);
  if (from) io.stdout.write(`forked from ${from.threadId} at message ${from.messageIndex ?? "?"}\n`);
  if (m.forks.length) io.stdout.write(`forks ${m.forks.join(", ")}\n`);
  let n = 0; // messages are numbered as 'acp-threads fork --at' takes them (core/handoff/fork.ts)
  for (const e of conversation(read.records)) {
    if (e.role === "thought") continue;
    const body = e.role === "tool" ? e.text : e.text.replace(/\n/g, "\n    ");
    const num = e.role === "user" || e.role === "assistant" ? `#${++n} ` : "";
    io.stdout.write(`\n${num}[${clock(e.ts)}] ${LABEL[e.role]}:${e.role === "tool" ? " " : "\n    "}${body}\n`);
  }
  return EXIT.ok;
}
