// The watchdog and its retry ladder with real agents against the scripted model made to misbehave: a model
// stream that goes silent mid-turn (codex-acp, claude-agent-acp), a 429 (codex-acp), and the agent process
// killed mid-turn by the model server (claude-agent-acp). In auto mode each thread ends with the task done.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ThreadSession } from "../../src/core/session";
import { ThreadStore } from "../../src/core/store/thread-store";
import { conversation } from "../../src/core/thread/conversation";
import { superviseSession } from "../../src/core/watchdog/attach";
import type { Supervisor } from "../../src/core/watchdog/supervisor";
import type { SupervisorState } from "../../src/core/model/watchdog";
import { AGENT_TIMEOUT_MS, PROMPT, runtimeFor, setUp, skipUnlessInstalled, type Interop } from "./harness";

interface Run {
  session: ThreadSession;
  supervisor: Supervisor;
  states: SupervisorState[];
  /** Resolves once the task is done (the scripted model's final answer). */
  done: Promise<void>;
}

/** A thread on the real agent, supervised in auto mode, with the host's prompt path as the CLI/extension use it. */
async function supervised(t: Interop, stallMs: number): Promise<Run> {
  const session = await ThreadSession.start({
    store: new ThreadStore(t.dataHome),
    agent: { id: t.agent.id, name: t.agent.id, command: t.agent.command, args: t.agent.args },
    cwd: t.workspace,
    createRuntime: () => runtimeFor(t),
  });
  // done = the scripted model's final answer arrived (in a turn, or after one: see ThreadSession on late work)
  let said = "";
  const done = new Promise<void>((resolve) =>
    session.onEvent((e) => {
      if (e.type === "text" && e.stream === "output") said += e.text;
      if (/Done: created hello\.txt/.test(said)) resolve();
    }),
  );
  const prompt = async (text: string) => {
    supervisor.turnStarted();
    const r = await session.prompt(text);
    supervisor.turnEnded(r.stopReason, r.usage);
    return r;
  };
  const supervisor: Supervisor = superviseSession(session, {
    stallMs,
    mode: "auto",
    prompt,
    backoffMs: [500],
    cancelGraceMs: 3_000,
  });
  const states: SupervisorState[] = [];
  supervisor.onState((s) => states.push(s));
  void prompt(PROMPT).catch(() => undefined);
  return { session, supervisor, states, done };
}

/** True once a Claude Code transcript under `home` holds a user message. */
function claudeSavedPrompt(home: string): boolean {
  const projects = join(home, ".claude", "projects");
  if (!existsSync(projects)) return false;
  return readdirSync(projects, { recursive: true, encoding: "utf8" }).some(
    (f) => f.endsWith(".jsonl") && /"type":"user"/.test(readFileSync(join(projects, f), "utf8")),
  );
}

function alerts(states: SupervisorState[]): string[] {
  return [...new Set(states.flatMap((s) => (s.alert ? [s.alert.kind] : [])))];
}

/** The thread so far, for failure messages. */
const said = (t: Interop, run: Run) =>
  conversation(new ThreadStore(t.dataHome).read(run.session.threadId).records)
    .map((e) => `${e.role}: ${e.text}`)
    .join("\n");

/** Waits for the task to be done; fails with the thread's conversation when it is not within `ms`. */
async function settled(t: Interop, run: Run, ms = 60_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the task did not finish; the thread says:\n${said(t, run)}`)), ms);
  });
  try {
    await Promise.race([run.done, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function finish(t: Interop, run: Run): Promise<string[]> {
  await settled(t, run);
  const steps = run.states.at(-1)?.history.map((h) => h.step) ?? [];
  run.supervisor.dispose();
  await run.session.close();
  const file = join(t.workspace, "hello.txt");
  assert.ok(existsSync(file), `hello.txt missing; the thread says:\n${said(t, run)}`);
  assert.equal(readFileSync(file, "utf8").trim(), "hi");
  return steps;
}

for (const id of ["codex-acp", "claude-agent-acp", "claude-agent-acp-0.23"] as const) {
  test(
    `${id}: a model stream that goes silent is caught as a stall, cancelled and continued`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        // the turn's request: claude-agent-acp 0.101's Claude Code first asks the model for a session title (no
        // tools), and a stalled title request leaves the turn running on
        t.server.configure({ stall: { count: 1, afterEvents: 2, withTools: true } });
        const run = await supervised(t, 4_000);
        const stall = await new Promise<SupervisorState>((resolve) =>
          run.supervisor.onState((s) => s.alert?.kind === "stalled" && resolve(s)),
        );
        assert.match(stall.alert!.message, /^No update for \d+ s/);
        await settled(t, run);
        assert.deepEqual(alerts(run.states), ["stalled"]);
        // claude-agent-acp stalls while its Write tool call is streaming in: the alert names it by the title the
        // adapter gives it meanwhile ("Write"; 0.101: "Preparing file…")
        if (id === "claude-agent-acp-0.23")
          assert.match(stall.alert!.message, /while the tool call "Write" is in progress/);
        if (id === "claude-agent-acp")
          assert.match(stall.alert!.message, /while the tool call "Preparing file…" is in progress/);
        const history = run.states.flatMap((s) => s.history.map((h) => h.step));
        assert.deepEqual([...new Set(history)], ["cancel", "continue"]);
        await finish(t, run);
        assert.equal(t.server.stats().faults.stalls, 1);
      } finally {
        await t.cleanup();
      }
    },
  );
}

// codex-acp 0.16 fails the turn with a JSON-RPC error; codex-acp 2.6 ends it with end_turn and a typed session
// failure ("exceeded retry limit, last status: 429 Too Many Requests") that the runtime turns into a turn error.
for (const id of ["codex-acp", "codex-acp-0.16"] as const) {
  test(
    `${id}: a 429 from the model API is recognised as a rate limit and the turn is continued after a wait`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        t.server.configure({ fail: { status: 429, count: 1, message: "Rate limit reached for requests" } });
        const run = await supervised(t, 60_000);
        await settled(t, run);
        assert.deepEqual(alerts(run.states), ["rate_limited"]);
        const history = run.states.flatMap((s) => s.history.map((h) => h.step));
        assert.deepEqual([...new Set(history)], ["continue"]);
        await finish(t, run);
        assert.equal(t.server.stats().injectedFailures, 1);
      } finally {
        await t.cleanup();
      }
    },
  );
}

test(
  "claude-agent-acp: an agent killed mid-turn is restarted, its session loaded, and the turn continued",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("claude-agent-acp");
    try {
      // Claude Code saves the prompt to its transcript a moment after it sends the model request; a crash before
      // that leaves nothing to load (the session would be seeded instead, as the ladder does). The model server
      // holds the request until the transcript holds the prompt, so the agent dies mid-turn with a session to load.
      // Only the turn's request (it offers tools): the session-title request Claude Code sends alongside may come
      // first, and killing on it let the turn's Write start first (CI once: the reloaded turn went on without it).
      t.server.configure({ die: { count: 1, withTools: true, until: () => claudeSavedPrompt(t.agent.home) } });
      const run = await supervised(t, 60_000);
      await settled(t, run);
      assert.deepEqual(alerts(run.states), ["died"]);
      const last = run.states.at(-1)!;
      assert.equal(t.server.stats().faults.kills, 1);
      const restart = run.states.flatMap((s) => s.history).find((h) => h.step === "restart");
      assert.equal(restart?.outcome, "reopened by load");
      assert.ok(last);
      await finish(t, run);
      const { records } = new ThreadStore(t.dataHome).read(run.session.threadId);
      assert.deepEqual(
        records.flatMap((r) => (r.kind === "session_open" ? [r.origin] : [])),
        ["new", "load"],
      );
      assert.ok(existsSync(join(t.dataHome, "traffic", `${run.session.threadId}.ndjson`)));
    } finally {
      await t.cleanup();
    }
  },
);
