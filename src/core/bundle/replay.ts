/**
 * `replayBundle`: plays a bug bundle's agent side against a fresh client (this engine, a new empty workspace,
 * permission answers taken from the recording) and reports where the client now behaves differently: a message
 * it no longer sends or sends differently, one the recording does not expect, a step where it got stuck, and
 * how the thread it records differs from the recorded one. A user's bug bundle thus becomes a regression test.
 *
 * The driver performs the user's actions of the recording when the replay reaches them (start the agent and open
 * the session, prompt, cancel, set a mode or option, close); everything else (answers to fs, terminal and
 * permission requests, authentication, the session ladder) the client must produce by itself.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createAgentRuntime, type AcpAgentRuntime } from "../acp/agent-runtime";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { errorMessage } from "../errors";
import type { RuntimeEvent } from "../model/events";
import type { ThreadRecord } from "../model/records";
import { ThreadStore } from "../store/thread-store";
import { LiveThread } from "../thread/live-thread";
import { HOME_PLACEHOLDER, replacePaths, WORKSPACE_PLACEHOLDER, type BugBundle } from "./bundle";
import { describeStep, ReplayAgent, type Divergence, type Step } from "./replay-agent";
import { background } from "../util/unexpected";

export interface ReplayOptions {
  /** How long the client may take to send the next recorded message (default 20 s). */
  stepTimeoutMs?: number;
  /** Serve terminal/* with pipes (default true: replay output must not depend on a PTY). */
  noPty?: boolean;
}

export interface ThreadDifference {
  index: number;
  recorded: string | null;
  replayed: string | null;
}

export interface ReplayReport {
  ok: boolean;
  bundle: { threadId: string; agent: string; agents: string[]; createdAt: string };
  /** Messages in the recording, and how many client messages matched. */
  steps: number;
  matched: number;
  divergences: Divergence[];
  thread: ThreadDifference[];
  notes: string[];
  durationMs: number;
}

const OPENERS = new Set(["session/new", "session/load", "session/resume"]);
const DECLINE = { action: "decline" } as const;

/** Files the agent read before anyone wrote them: the replay workspace starts with that content. */
function seedWorkspace(steps: readonly Step[], ws: string, toLocal: (s: string) => string): number {
  const written = new Set<string>();
  let seeded = 0;
  for (const s of steps) {
    const p = s.m.params as { path?: string } | undefined;
    if (s.d === "recv" && s.m.method === "fs/write_text_file" && p?.path) written.add(p.path);
    if (s.d !== "recv" || s.m.method !== "fs/read_text_file" || !p?.path || written.has(p.path)) continue;
    const answer = steps.find((r) => r.d === "send" && r.index > s.index && r.m.id === s.m.id && !r.m.method);
    const content = (answer?.m.result as { content?: unknown } | undefined)?.content;
    const path = toLocal(p.path);
    if (typeof content !== "string" || !content || !path.startsWith(ws)) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    written.add(p.path);
    seeded++;
  }
  return seeded;
}

/** One line per thing a person sees in a thread: messages, tool calls, permission answers, turn ends. */
export function threadLines(records: readonly ThreadRecord[], toShared: (s: string) => string = (s) => s): string[] {
  const out: string[] = [];
  let lastMsg: string | undefined;
  for (const r of records) {
    if (r.kind === "agent_message" && lastMsg === r.messageId) {
      out[out.length - 1] += r.text;
      continue;
    }
    lastMsg = r.kind === "agent_message" ? r.messageId : undefined;
    if (r.kind === "user_message") out.push(`user: ${r.text}`);
    else if (r.kind === "agent_message") out.push(`assistant: ${r.text}`);
    else if (r.kind === "tool_call") out.push(`tool: ${r.toolCall.title} [${r.toolCall.status}]`);
    else if (r.kind === "permission") out.push(`permission: ${r.title} → ${r.optionKind ?? "cancelled"}`);
    else if (r.kind === "turn_end") out.push(`turn end: ${r.stopReason}`);
  }
  return out.map((l) => toShared(l).replace(/\s+/g, " ").trim());
}

function compareLines(recorded: string[], replayed: string[]): ThreadDifference[] {
  const out: ThreadDifference[] = [];
  for (let i = 0; i < Math.max(recorded.length, replayed.length) && out.length < 20; i++) {
    if (recorded[i] !== replayed[i])
      out.push({ index: i, recorded: recorded[i] ?? null, replayed: replayed[i] ?? null });
  }
  return out;
}

export async function replayBundle(bundle: BugBundle, opts: ReplayOptions = {}): Promise<ReplayReport> {
  const started = Date.now();
  const stepTimeout = opts.stepTimeoutMs ?? 20_000;
  const root = mkdtempSync(join(tmpdir(), "acp-threads-replay-"));
  const ws = join(root, "workspace");
  const home = join(root, "home");
  mkdirSync(ws);
  mkdirSync(home);
  const agent = new ReplayAgent(bundle.traffic, [
    [WORKSPACE_PLACEHOLDER, ws],
    [HOME_PLACEHOLDER, home],
  ]);
  const notes = [...bundle.notes];
  const toLocal = replacePaths([
    [WORKSPACE_PLACEHOLDER, ws],
    [HOME_PLACEHOLDER, home],
  ]);
  const seeded = seedWorkspace(agent.steps, ws, toLocal);
  if (seeded) notes.push(`${seeded} file(s) the agent read first were put in the replay workspace`);
  const store = new ThreadStore(join(root, "threads"));
  const handle = store.create({
    agent: { id: bundle.agent.id, name: bundle.agent.name, command: "replay" },
    mode: "acp",
    cwd: ws,
    repoRoot: null,
    gitHead: null,
  });
  const live = new LiveThread(handle, store.readPath(handle.path).metadata, { flushMs: 0 });
  const userTexts = bundle.thread.records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
  let rt: AcpAgentRuntime | undefined;
  /** An ensureSession in flight: the session ladder's own requests are the client's to send. */
  let opening: Promise<void> | undefined;
  const open = (req: { resumeSessionId?: string }) => {
    const p: Promise<void> = rt!
      .ensureSession(req)
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => {
        if (opening === p) opening = undefined;
      });
    opening = p;
  };
  const turns: Promise<void>[] = [];
  const handled = new Set<number>();
  const spec = { id: bundle.agent.id, displayName: bundle.agent.name, command: "/replay", args: [] };
  const recordsElicitation = agent.recordedElicitation;
  const newRuntime = () =>
    createAgentRuntime(
      {
        agent: spec,
        cwd: ws,
        permissionPolicy: "ask",
        asker: {
          ask: async (p) => agent.recordedPermissionAnswer(p.request.toolCall.toolCallId) ?? null,
        },
        // advertised as the recorded client did (`run` and the extension do; a bare runtime does not)
        ...(recordsElicitation ? { elicitor: { ask: async () => agent.recordedElicitationAnswer() ?? DECLINE } } : {}),
      },
      {
        transport: agent.transport(),
        noPty: opts.noPty ?? true,
        baseEnv: { PATH: process.env.PATH ?? "" },
        gateEffects: false, // the recording holds the client's decisions for every effect
      },
    );
  const runTurn = (sessionId: string, prompt: ContentBlock[]) => {
    const text = userTexts.shift() ?? prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    live.beginTurn(toLocal(text));
    const events = rt!.runTurn(sessionId, prompt);
    turns.push(
      (async () => {
        for await (const e of events as AsyncIterable<RuntimeEvent>) live.record(e);
      })().catch((err: unknown) => void notes.push(`a turn failed: ${errorMessage(err)}`)),
    );
  };

  /** Performs the user's action the recording shows at `step`, if it is one and not done yet. */
  const act = async (step: Step): Promise<void> => {
    if (handled.has(step.index) || step.d !== "send") return;
    const method = step.m.method;
    const p = (step.m.params ?? {}) as Record<string, unknown>;
    const sid = typeof p.sessionId === "string" ? p.sessionId : "";
    if (method === "initialize") {
      handled.add(step.index);
      if (rt) await rt.close().catch(() => undefined); // the recording restarted its agent here
      rt = newRuntime();
      const next = agent.steps.find((s) => s.index > step.index && s.d === "send" && OPENERS.has(String(s.m.method)));
      const resume = next && next.m.method !== "session/new" ? (next.m.params as { sessionId?: string }) : undefined;
      open(resume?.sessionId ? { resumeSessionId: resume.sessionId } : {});
      return;
    }
    if (!rt) return;
    if (OPENERS.has(String(method))) {
      if (opening) return; // the ladder of the ensureSession in flight sends it
      handled.add(step.index);
      open(method === "session/new" ? {} : { resumeSessionId: sid });
      return;
    }
    // the session must be open (its ensureSession resolved) before anything is done with it
    if (opening) await opening;
    if (method === "session/prompt") {
      handled.add(step.index);
      await turns.at(-1); // our client runs one turn at a time: the last one winds down first
      runTurn(sid, (p.prompt ?? []) as ContentBlock[]);
    } else if (method === "session/cancel") {
      handled.add(step.index);
      background(rt.cancel(sid), "replaying session/cancel");
    } else if (method === "session/set_mode") {
      handled.add(step.index);
      void rt.setMode(sid, String(p.modeId)).catch(() => undefined);
    } else if (method === "session/set_config_option") {
      handled.add(step.index);
      void rt.setConfigOption(sid, String(p.configId), p.value as string | boolean).catch(() => undefined);
    } else if (method === "session/close") {
      handled.add(step.index);
      void rt.closeSession(sid).catch(() => undefined);
    } else if (method === "session/list") {
      handled.add(step.index);
      void rt.listSessions().catch(() => undefined);
    }
  };

  try {
    while (!agent.finished) {
      const step = agent.expected!;
      const at = agent.position;
      await act(step);
      if (!(await agent.progress(at, stepTimeout)) && !agent.finished) {
        const what = describeStep(agent.steps, step);
        agent.stop({
          kind: "stuck",
          expected: what,
          message: `the client did not send ${what} within ${Math.round(stepTimeout / 1000)} s; the replay stops here`,
        });
      }
    }
    await Promise.race([Promise.all(turns), new Promise((r) => setTimeout(r, 2_000))]);
  } finally {
    await rt?.close().catch(() => undefined);
    live.close();
  }
  const toShared = replacePaths([
    [ws, WORKSPACE_PLACEHOLDER],
    [home, HOME_PLACEHOLDER],
  ]);
  const thread = compareLines(
    threadLines(bundle.thread.records),
    threadLines(store.read(live.threadId).records, toShared),
  );
  rmSync(root, { recursive: true, force: true });
  notes.push(...new Set(agent.notes));
  if (agent.extra) notes.push(`${agent.extra} client message(s) after the recording ended were not compared`);
  const agents = bundle.versions.agents.map((a) => `${a.name}${a.version ? ` ${a.version}` : ""}`);
  return {
    ok: agent.divergences.length === 0 && thread.length === 0,
    bundle: { threadId: bundle.thread.threadId, agent: bundle.agent.id, agents, createdAt: bundle.createdAt },
    steps: agent.steps.length,
    matched: agent.matched,
    divergences: agent.divergences,
    thread,
    notes,
    durationMs: Date.now() - started,
  };
}
