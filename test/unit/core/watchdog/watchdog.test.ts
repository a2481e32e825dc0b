import assert from "node:assert/strict";
import { test } from "node:test";
import type { RuntimeEvent, ToolCallState } from "../../../../src/core/model/events";
import { classifyThrottle } from "../../../../src/core/watchdog/classify";
import { RetryLadder, type LadderTarget } from "../../../../src/core/watchdog/retry-ladder";
import { Supervisor } from "../../../../src/core/watchdog/supervisor";
import { TurnWatchdog, type WatchdogClock } from "../../../../src/core/watchdog/turn-watchdog";
import type { SupervisorState, WatchdogAlert } from "../../../../src/core/model/watchdog";

/** A clock the test moves by hand: timers fire when `advance` passes their due time. */
class FakeClock implements WatchdogClock {
  t = 1_000_000;
  timers: { due: number; fn: () => void; id: number }[] = [];
  #id = 0;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.#id;
    this.timers.push({ due: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== h);
  };
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.t = next.due;
      next.fn();
    }
    this.t = end;
  }
}

const tool = (status: ToolCallState["status"]): RuntimeEvent => ({
  type: "tool_call",
  toolCall: { toolCallId: "t1", title: "npm install", kind: "execute", status, content: [], locations: [] },
});

test("rate limits and overload are recognised in the errors real agents report, with the wait they ask for", () => {
  const codex = classifyThrottle("Internal error: exceeded retry limit, last status: 429 Too Many Requests");
  assert.equal(codex?.kind, "rate_limited");
  const claude = classifyThrottle(
    'Internal error: API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Rate limit reached"}}',
  );
  assert.equal(claude?.kind, "rate_limited");
  assert.equal(classifyThrottle("RESOURCE_EXHAUSTED: quota. Please try again in 12.5s")?.retryAfterMs, 12_500);
  assert.equal(classifyThrottle("HTTP 429, retry-after: 30")?.retryAfterMs, 30_000);
  assert.equal(classifyThrottle('API Error: 529 {"type":"overloaded_error"}')?.kind, "overloaded");
  assert.equal(classifyThrottle("wrote 429 lines to out.txt"), undefined);
  assert.equal(classifyThrottle("Internal error: invalid tool schema"), undefined);
});

test("a turn that goes silent while a tool call runs is reported once; activity clears it", () => {
  const clock = new FakeClock();
  const wd = new TurnWatchdog(60_000, clock);
  const seen: (WatchdogAlert | undefined)[] = [];
  wd.onAlert((a) => seen.push(a));
  wd.turnStarted();
  wd.observe(tool("in_progress"));
  clock.advance(30_000);
  wd.observe({ type: "text", stream: "output", text: "still here" });
  clock.advance(59_000);
  assert.equal(seen.length, 0, "no alert while updates keep coming");
  clock.advance(2_000);
  assert.equal(seen.length, 1);
  const first = seen[0] as WatchdogAlert;
  assert.equal(first.kind, "stalled");
  assert.equal(first.toolCall?.title, "npm install");
  assert.match(first.message, /No update for 60 s while the tool call "npm install" is in progress/);
  clock.advance(600_000);
  assert.equal(seen.length, 1, "one alert per silence");
  wd.observe(tool("completed"));
  assert.deepEqual(seen.at(-1), undefined, "it moved again: the alert clears");
  wd.turnEnded("end_turn");
  clock.advance(600_000);
  assert.equal(seen.length, 2, "no stall between turns");
});

test("no stall is reported while a permission request waits for a person", () => {
  const clock = new FakeClock();
  const wd = new TurnWatchdog(10_000, clock);
  wd.turnStarted();
  wd.waitingForUser(true);
  clock.advance(3_600_000);
  assert.equal(wd.alert, undefined);
  wd.waitingForUser(false);
  clock.advance(10_001);
  const alert = wd.alert as WatchdogAlert | undefined; // (not the undefined asserted above)
  assert.equal(alert?.kind, "stalled");
  assert.match(alert!.message, /during the turn$/);
});

test("a throttle seen twice in one turn (error and stderr) is one alert; the next turn may raise it again", () => {
  const wd = new TurnWatchdog(0, new FakeClock());
  const seen: (WatchdogAlert | undefined)[] = [];
  wd.onAlert((a) => seen.push(a));
  wd.turnStarted();
  wd.stderr(
    "ERROR codex_acp::thread: Unhandled error during turn: exceeded retry limit, last status: 429 Too Many Requests",
  );
  wd.observe({ type: "error", message: "Internal error: exceeded retry limit, last status: 429 Too Many Requests" });
  assert.equal(seen.filter(Boolean).length, 1);
  wd.turnEnded("error");
  assert.equal(wd.alert?.kind, "rate_limited", "a failed turn keeps the alert");
  wd.turnStarted();
  wd.observe({ type: "error", message: "Internal error: exceeded retry limit, last status: 429 Too Many Requests" });
  assert.equal(seen.filter(Boolean).length, 2);
  wd.observe({ type: "error", message: "fake-agent exited (code 7, signal null)", code: "agent_exited" });
  assert.equal(wd.alert?.kind, "died");
  wd.turnEnded("end_turn");
  assert.equal(wd.alert, undefined, "a clean turn end clears everything");
});

/** A scripted target: records the actions, with a running turn flag the test flips. */
function target(opts: { alive?: boolean } = {}) {
  const calls: string[] = [];
  const state = { running: true, alive: opts.alive ?? true };
  const t: LadderTarget = {
    turnRunning: () => state.running,
    agentAlive: () => state.alive,
    cancel: async () => {
      calls.push("cancel");
      state.running = false;
    },
    turnEnded: async () => undefined,
    prompt: async (text) => {
      calls.push(`prompt ${text}`);
      state.running = true;
    },
    restart: async () => {
      calls.push("restart");
      state.alive = true;
      state.running = false;
      return "load";
    },
  };
  return { t, calls, state };
}

const noSleep = { sleep: async () => undefined };

test("the ladder climbs cancel → continue → restart, skipping rungs that do not apply", async () => {
  const { t, calls, state } = target();
  const ladder = new RetryLadder(t, noSleep);
  assert.equal(ladder.next(), "cancel");
  await ladder.climb(undefined);
  assert.equal(ladder.next(), "continue");
  await ladder.climb(undefined);
  assert.equal(ladder.next(), "restart", "the turn runs again: a stuck continue goes up to restart");
  assert.deepEqual(await ladder.climb(undefined), { step: "restart", reopened: "load" });
  assert.equal(ladder.next(), undefined);
  assert.deepEqual(calls, ["cancel", "prompt continue", "cancel", "restart", "prompt continue"]);
  ladder.reset();
  state.running = false;
  state.alive = false;
  assert.equal(ladder.next(), "restart", "a dead agent: neither cancel nor continue applies");
});

test("after a throttle the ladder waits as the provider asked (or backs off) before continuing", async () => {
  const waits: number[] = [];
  const { t, state } = target();
  state.running = false;
  const ladder = new RetryLadder(t, { sleep: async (ms) => void waits.push(ms), backoffMs: [1000, 5000] });
  const alert: WatchdogAlert = { kind: "rate_limited", at: 0, message: "429", turnRunning: false };
  for (const a of [{ ...alert, retryAfterMs: 2500 }, alert, alert, alert]) {
    await ladder.climb(a, "continue");
    state.running = false; // the re-prompted turn failed again
  }
  assert.deepEqual(waits, [2500, 1000, 5000, 5000]);
});

test("in auto mode the supervisor cancels a stalled turn and re-prompts at once, then restarts on a second stall", async () => {
  const clock = new FakeClock();
  const { t, calls } = target();
  const sup = new Supervisor(t, { stallMs: 5_000, mode: "auto", clock, ...noSleep, cancelGraceMs: 0 });
  const states: SupervisorState[] = [];
  sup.onState((s) => states.push(s));
  sup.turnStarted();
  clock.advance(5_001);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(calls, ["cancel", "prompt continue"]);
  sup.turnStarted(); // the re-prompted turn
  clock.advance(5_001);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(calls, ["cancel", "prompt continue", "cancel", "restart", "prompt continue"]);
  assert.deepEqual(
    sup.state.history.map((h) => [h.step, h.outcome]),
    [
      ["cancel", "done"],
      ["continue", "done"],
      ["restart", "reopened by load"],
    ],
  );
  sup.turnStarted();
  clock.advance(5_001);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(calls.length, 5, "exhausted: no more rungs, the alert stays for a person");
  assert.equal(sup.state.exhausted, true);
  sup.turnEnded("end_turn");
  assert.deepEqual([sup.state.alert, sup.state.history.length, sup.state.next], [undefined, 0, undefined]);
  sup.dispose();
});

test("in offer mode the supervisor only says what it would do until asked", async () => {
  const clock = new FakeClock();
  const { t, calls } = target();
  const sup = new Supervisor(t, { stallMs: 1_000, mode: "offer", clock, ...noSleep, cancelGraceMs: 0 });
  sup.turnStarted();
  clock.advance(1_001);
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual([sup.state.alert?.kind, sup.state.next, calls], ["stalled", "cancel", []]);
  await sup.retry("continue");
  assert.deepEqual(calls, ["cancel", "prompt continue"]);
  sup.dispose();
});

test("a re-prompt the agent answers at once without any work is asked once more (claude-agent-acp after a cancel)", async () => {
  const clock = new FakeClock();
  const { t, calls } = target();
  const sup = new Supervisor(t, { stallMs: 1_000, mode: "offer", clock, ...noSleep, cancelGraceMs: 0 });
  // the host's prompt path: every turn is reported to the supervisor
  t.prompt = async (text) => {
    calls.push(`prompt ${text}`);
    sup.turnStarted();
  };
  sup.turnStarted();
  clock.advance(1_001);
  await sup.retry("continue");
  assert.deepEqual(calls, ["cancel", "prompt continue"]);
  sup.turnEnded("end_turn", { totalTokens: 0 }); // hollow: no output, no tokens
  assert.deepEqual(calls, ["cancel", "prompt continue", "prompt continue"]);
  sup.watchdog.observe({ type: "text", stream: "output", text: "done" });
  sup.turnEnded("end_turn", { totalTokens: 120 });
  assert.equal(calls.length, 3, "a real answer ends it");
  assert.deepEqual(sup.state.history, []);
  sup.dispose();
});
