/** Issue #24 item 3: what the engine keeps per agent and per session stays under its caps over a long day. */
import assert from "node:assert/strict";
import { methods } from "@agentclientprotocol/sdk";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { TerminalView } from "../../../../src/core/ports";
import { LAST_READ_MAX_BYTES, LastReadCache } from "../../../../src/core/acp/last-read";
import {
  MAX_TRACKED_CALLS,
  TOOL_OUTPUT_HEAD,
  TOOL_OUTPUT_TAIL,
  ToolCallTracker,
} from "../../../../src/core/acp/normalize";
import { SessionState } from "../../../../src/core/acp/session-state";
import { spawnAgent } from "../../../../src/core/acp/spawn";
import { STDERR_LINE_MAX_CHARS, StderrLines } from "../../../../src/core/acp/stderr-lines";
import type { EngineContext } from "../../../../src/core/acp/session-state";
import { FINISHED_KEEP_BYTES, TerminalManager } from "../../../../src/core/acp/terminal-handler";
import { collect, startFake } from "../../../fixtures/fake-agents/in-process";

test("the texts the agent read are kept up to a byte cap, least recently used first out", () => {
  const session = new SessionState("s", "/w");
  const file = "x".repeat(100 * 1024); // 2k reads of 100 KB files, as in the long-day bench
  for (let i = 0; i < 2000; i++) session.lastRead.set(`/w/f${i}.ts`, file + i);
  const bytes = (session.lastRead as LastReadCache).bytes;
  assert.ok(bytes <= LAST_READ_MAX_BYTES, `kept ${bytes} bytes`);
  assert.equal(session.lastRead.get("/w/f1999.ts"), file + 1999, "the latest read is kept");
  assert.equal(session.lastRead.get("/w/f0.ts"), undefined, "the oldest read is gone");
});

test("the last-read cache keeps a text in use and never a text over the entry cap", () => {
  const cache = new LastReadCache(300, 100);
  cache.set("a", "a".repeat(50)); // 100 bytes
  cache.set("b", "b".repeat(50));
  cache.get("a"); // a is now the most recently used
  cache.set("c", "c".repeat(50));
  cache.set("d", "d".repeat(50)); // over 300: b goes, not a
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a"));
  cache.set("big", "x".repeat(51));
  assert.equal(cache.get("big"), undefined);
  assert.ok(cache.bytes <= 300);
  cache.set("a", "y");
  assert.equal(cache.get("a"), "y", "a new read replaces the old text");
});

test("stderr without a newline is cut at the line cap; the rest of that line is dropped until its newline", () => {
  const logged: string[] = [];
  const lines = new StderrLines(5, (l) => logged.push(l), 10);
  lines.push("0123456789abcdef");
  lines.push("ghij".repeat(1000));
  assert.ok(lines.partialLength <= 10);
  lines.push("tail of the long line\nnext\r\nlast");
  assert.deepEqual(logged, ["0123456789 …[cut]", "next"]);
  assert.deepEqual(lines.lines(), ["0123456789 …[cut]", "next", "last"]);
  lines.end();
  assert.deepEqual(logged.at(-1), "last");
});

test("an agent flooding stderr without newlines leaves a bounded tail", async () => {
  const flood = `process.stderr.write("e".repeat(4 * 1024 * 1024)); process.stderr.write("x\\nend")`;
  const agent = spawnAgent(
    { id: "flood", displayName: "flood", command: process.execPath, args: ["-e", flood] },
    { cwd: tmpdir() },
  );
  await agent.exited;
  const tail = agent.stderrTail();
  assert.ok(
    tail.every((l) => l.length <= STDERR_LINE_MAX_CHARS + 10),
    `longest line ${Math.max(...tail.map((l) => l.length))}`,
  );
  assert.equal(tail.at(-1), "end");
});

test("a session's tool-call map is bounded and streamed terminal output keeps its head and tail", () => {
  const tools = new ToolCallTracker();
  for (let i = 0; i < 5000; i++) {
    tools.apply({ toolCallId: `t${i}`, title: `call ${i}`, status: "in_progress" }, true);
    tools.apply({ toolCallId: `t${i}`, _meta: { terminal_output: { data: "x".repeat(1000) } } }, false);
    tools.apply({ toolCallId: `t${i}`, status: "completed" }, false);
  }
  assert.ok(tools.size <= MAX_TRACKED_CALLS, `tracked ${tools.size}`);
  assert.equal(tools.get("t4999")?.title, "call 4999");
  const long = tools.apply({ toolCallId: "long", title: "build", status: "in_progress" }, true)!;
  assert.ok(long);
  let last = long;
  for (let i = 0; i < 2000; i++)
    last = tools.apply(
      { toolCallId: "long", _meta: { terminal_output_delta: { data: `line ${i}\n`.padEnd(100) } } },
      false,
    )!;
  const out = last.terminalOutput ?? "";
  assert.ok(out.length <= TOOL_OUTPUT_HEAD + TOOL_OUTPUT_TAIL + 32, `kept ${out.length} characters`);
  assert.ok(out.startsWith("line 0\n"), "the head is kept");
  assert.ok(out.includes("line 1999\n"), "the tail is kept");
  assert.equal(out.split("[output cut]").length, 2, "one cut mark");
  assert.ok(tools.size <= MAX_TRACKED_CALLS);
});

test("released and old terminals give their buffers back; the latest keep their whole output", async () => {
  const cwd = await mkdtemp(join(tmpdir(), "acp-mem-"));
  const ids: string[] = [];
  const rt = startFake(
    {
      prompt: async ({ client, sessionId }) => {
        for (let i = 0; i < 300; i++) {
          const { terminalId } = await client.request(methods.client.terminal.create, {
            sessionId,
            command: `head -c 100000 /dev/zero | tr '\\\\0' x; echo " #${i}"`,
          });
          await client.request(methods.client.terminal.waitForExit, { sessionId, terminalId });
          if (i % 2) await client.request(methods.client.terminal.release, { sessionId, terminalId });
          ids.push(terminalId);
        }
        return "end_turn";
      },
    },
    { cwd, permissionPolicy: "approve-all", terminalHost: { onTerminalCreated: () => {} } },
  );
  try {
    const { sessionId } = await rt.ensureSession();
    await collect(rt.runTurn(sessionId, "go"));
    const kept = rt.terminalsRetained();
    assert.ok(kept.terminals <= 256, `${kept.terminals} terminals kept`);
    assert.ok(kept.bytes <= 16 * 100_100 + 256 * FINISHED_KEEP_BYTES, `${kept.bytes} bytes kept`);
    assert.equal(rt.terminalOutput(ids[0]!), undefined, "the oldest is forgotten");
    const latest = rt.terminalOutput(ids.at(-2)!)!;
    assert.ok(latest.output.length > 100_000 && latest.output.endsWith(" #298\n"), "the latest keeps everything");
    const older = rt.terminalOutput(ids[200]!)!;
    assert.ok(older.output.length <= FINISHED_KEEP_BYTES && older.truncated, "an older one keeps its tail");
    assert.ok(older.output.endsWith(" #200\n"));
  } finally {
    await rt.close();
    await rm(cwd, { recursive: true, force: true });
  }
});

/** A full garbage collection (the test runner has no --expose-gc). */
const gc = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

test("a terminal's view, which VS Code keeps while it lists the terminal, lets go of its manager once it exited", async () => {
  const cwd = await mkdtemp(join(tmpdir(), "acp-mem-"));
  const views: TerminalView[] = [];
  // the engine context reaches the whole session (its runtime, protocol log, tool calls)
  const session = async () => {
    const ctx = {
      session: () => ({ cwd }),
      guard: { check: async (p: string) => p },
      terminalEnv: { ...process.env },
      terminalHost: { onTerminalCreated: (v: TerminalView) => views.push(v) },
      logger: { warn: () => undefined },
      heavy: Buffer.alloc(1024 * 1024),
    };
    const manager = new TerminalManager(ctx as unknown as EngineContext, { noPty: true });
    const { terminalId } = await manager.create({ sessionId: "s1", command: "echo hi" }, "engine");
    await manager.waitForExit({ sessionId: "s1", terminalId });
    manager.disposeAll();
    return new WeakRef(ctx);
  };
  try {
    const ctx = await session();
    // a WeakRef's target stays for the rest of the job that made it: collect after a turn of the event loop
    for (let i = 0; i < 20 && ctx.deref(); i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    assert.equal(views.length, 1);
    assert.equal(ctx.deref(), undefined, "the exited terminal's view holds its manager and the session");
    const exits: unknown[] = [];
    views[0]!.onExit((e) => exits.push(e)).dispose();
    assert.deepEqual(exits, [{ exitCode: 0, signal: null }], "the view still tells the exit");
    views[0]!.write("ignored once exited");
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});
