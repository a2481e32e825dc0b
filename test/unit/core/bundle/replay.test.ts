import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { buildBugBundle, readBugBundle, writeBugBundle, type BugBundle } from "../../../../src/core/bundle/bundle";
import { replayBundle } from "../../../../src/core/bundle/replay";
import { ThreadSession } from "../../../../src/core/session";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
const spec = { id: "fake-stdio", displayName: "Fake stdio", command: process.execPath, args: [AGENT_JS] };

/** A thread on the stdio fake agent with writes (permission + fs), reads, a terminal and streamed text. */
async function recorded(dir: string): Promise<{ store: ThreadStore; threadId: string }> {
  const store = new ThreadStore(join(dir, "home"));
  const session = await ThreadSession.start({
    store,
    agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
    cwd: join(dir),
    createRuntime: () =>
      createAgentRuntime({ agent: spec, cwd: dir, permissionPolicy: "approve-all" }, { noPty: true }),
  });
  try {
    const notes = join(dir, "notes.txt");
    for (const p of [`write ${notes} remember the milk`, `read ${notes}`, "terminal echo hi", "stream 3"]) {
      const r = await session.prompt(p);
      assert.equal(r.stopReason, "end_turn", `${p}: ${r.error}`);
    }
  } finally {
    await session.close();
  }
  return { store, threadId: session.threadId };
}

test("a bug bundle is redacted, anonymised and 0600, and replays against a fresh client without divergence", () =>
  withTmp(async (dir) => {
    const { store, threadId } = await recorded(dir);
    const bundle = await buildBugBundle(store, threadId, { acpThreadsVersion: "0.0.0-test" });
    const file = join(dir, "bug.json");
    await writeBugBundle(bundle, file);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, "utf8");
    assert.ok(!text.includes(dir), "no workspace path in the bundle");
    assert.ok(text.includes("${WORKSPACE}/notes.txt"));
    assert.deepEqual(bundle.versions.agents, [{ name: "fake-agent", version: "1.2.3" }]);
    const report = await replayBundle(readBugBundle(file));
    assert.deepEqual(report.divergences, []);
    assert.deepEqual(report.thread, []);
    assert.equal(report.ok, true);
    assert.ok(report.matched > 10 && report.matched === report.steps - stepsFromAgent(bundle));
  }));

function stepsFromAgent(b: BugBundle): number {
  return b.traffic.filter((e) => e.d === "recv" && e.m).length;
}

test("replay reports where the client now answers differently, and stops where it sends something unexpected", () =>
  withTmp(async (dir) => {
    const { store, threadId } = await recorded(dir);
    const bundle = await buildBugBundle(store, threadId, { acpThreadsVersion: "0.0.0-test" });
    // as if the client had once answered the read with other text, and advertised no terminals
    const tampered = structuredClone(bundle);
    for (const e of tampered.traffic) {
      const m = e.m as { method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };
      if (e.d === "send" && m?.method === "initialize")
        (m.params!.clientCapabilities as Record<string, unknown>).terminal = false;
      if (e.d === "send" && typeof m?.result?.content === "string") m.result.content = "remember the eggs";
    }
    const report = await replayBundle(tampered);
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.divergences.map((d) => [d.kind, d.expected, d.path, d.recorded, d.replayed]),
      [
        ["different", "initialize", "params.clientCapabilities.terminal", false, true],
        ["different", "response to fs/read_text_file", "result.content", "remember the eggs", "remember the milk"],
      ],
    );
    // a recording whose client once sent a prompt where this one sends nothing (a cut recording)
    const cut = structuredClone(bundle);
    const firstPrompt = cut.traffic.findIndex((e) => e.d === "send" && e.m?.method === "session/prompt");
    cut.traffic.splice(firstPrompt, 0, { t: 0, d: "send", m: { jsonrpc: "2.0", method: "session/frobnicate" } });
    const stuck = await replayBundle(cut, { stepTimeoutMs: 1_000 });
    assert.equal(stuck.divergences.at(-1)?.kind, "stuck");
    assert.match(stuck.divergences.at(-1)!.message, /did not send session\/frobnicate within 1 s/);
  }));
