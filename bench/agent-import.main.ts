/**
 * Importing agents' sessions (#36): (1) the lookup of which sessions we have, a scan of 10,000 thread headers
 * (`knownSessions`), next to reading every whole thread file (what a scan through the store's reader costs) in the
 * same run; (2) recording a replay of 500 turns (user message, thought, tool call with a diff, answer) into a staged
 * thread file and renaming it into place, next to writing the same number of bytes with one writeFileSync.
 * Prints figures; asserts nothing.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { knownSessions } from "../src/core/import/known-sessions";
import { placeThread, stageThread } from "../src/core/import/replay-thread";
import type { RuntimeEvent } from "../src/core/model/events";
import { serializeRecord, stampRecord, type ThreadStartRecord } from "../src/core/model/records";
import { newThreadId } from "../src/core/store/thread-id";
import { readFirstRecord } from "../src/core/store/jsonl-reader";

const THREADS = 10_000;
const TURNS = 500;
const agent = { id: "codex", name: "Codex", command: "/usr/bin/codex-acp" };

async function best(fn: () => Promise<unknown> | unknown, runs = 3): Promise<number> {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

function start(threadId: string, i: number, cwd: string): ThreadStartRecord {
  return {
    v: 1,
    ts: new Date().toISOString(),
    kind: "thread_start",
    threadId,
    agent,
    mode: "acp",
    cwd,
    repoRoot: cwd,
    gitHead: null,
    agentSessionId: `session-${i}`,
    ...(i % 2
      ? { origin: { kind: "agent-import", source: "codex", agentSessionId: `session-${i}`, updatedAt: null } }
      : {}),
  };
}

async function lookup(dir: string): Promise<void> {
  const threadsDir = join(dir, "threads");
  mkdirSync(threadsDir);
  const body = Array.from({ length: 40 }, (_, i) =>
    serializeRecord(stampRecord({ kind: "agent_message", messageId: `a${i}`, text: "lorem ipsum ".repeat(40) })),
  ).join("");
  for (let i = 0; i < THREADS; i++) {
    const id = newThreadId(Date.now() - (THREADS - i) * 1000);
    writeFileSync(join(threadsDir, `${id}.jsonl`), serializeRecord(start(id, i, dir)) + body);
  }
  const bytes = readdirSync(threadsDir).reduce((n, f) => n + statSync(join(threadsDir, f)).size, 0);
  let found = 0;
  const ms = await best(async () => (found = (await knownSessions(threadsDir, "codex")).size));
  const baseline = await best(() => {
    for (const f of readdirSync(threadsDir))
      for (const line of readFileSync(join(threadsDir, f), "utf8").split("\n")) if (line) JSON.parse(line);
  });
  const headers = await best(() => {
    for (const f of readdirSync(threadsDir)) readFirstRecord(join(threadsDir, f));
  });
  console.log(`  (the store's synchronous first-record read of every thread: ${headers.toFixed(0)} ms)`);
  console.log(
    `known sessions of ${THREADS} threads (${(bytes / 1e6).toFixed(1)} MB): ${ms.toFixed(0)} ms (${found} found); ` +
      `baseline, every file read and parsed (a scan through the store's reader): ${baseline.toFixed(0)} ms; ratio ${(ms / baseline).toFixed(2)}`,
  );
}

function replay(cwd: string): RuntimeEvent[] {
  const out: RuntimeEvent[] = [];
  for (let n = 0; n < TURNS; n++) {
    out.push({ type: "user_text", text: `question ${n} `.repeat(10) });
    out.push({ type: "text", stream: "thought", text: `thinking ${n} `.repeat(20) });
    out.push({
      type: "tool_call",
      toolCall: {
        toolCallId: `t${n}`,
        title: "Edit a.ts",
        kind: "edit",
        status: "completed",
        content: [{ type: "diff", path: join(cwd, "a.ts"), oldText: "old\n".repeat(20), newText: "new\n".repeat(20) }],
        locations: [],
      },
    });
    out.push({ type: "text", stream: "output", text: `answer ${n} `.repeat(40) });
  }
  return out;
}

async function record(dir: string): Promise<void> {
  const threadsDir = join(dir, "staged");
  mkdirSync(threadsDir);
  const events = replay(dir);
  let size = 0;
  const ms = await best(async () => {
    const id = newThreadId();
    const dest = join(threadsDir, `${id}.jsonl`);
    await placeThread(await stageThread({ threadsDir, start: start(id, 1, dir), replay: events }), dest);
    size = statSync(dest).size;
  });
  const text = readFileSync(
    join(
      threadsDir,
      readdirSync(threadsDir).find((f) => f.endsWith(".jsonl"))!,
    ),
  );
  const baseline = await best(() => writeFileSync(join(dir, "plain.jsonl"), text));
  console.log(
    `replay of ${TURNS} turns recorded and placed (${(size / 1e6).toFixed(2)} MB): ${ms.toFixed(1)} ms; ` +
      `baseline, the same bytes in one writeFileSync: ${baseline.toFixed(1)} ms; ratio ${(ms / baseline).toFixed(1)}`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-import-"));
  try {
    await lookup(dir);
    await record(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
