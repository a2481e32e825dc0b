// The engine's one way to open a thread's session (src/core/session/open-thread.ts), with the stdio fake agent and
// real git: a new thread names the worktree made for it and serves the steering inbox, so
// `acp-threads run --thread ID --steer TEXT` reaches whichever process opened it; a worktree made for a session
// that never opened (the agent cannot start, or `prepare` refuses) is removed again and told as progress.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import type { RuntimeEvent } from "../../../../src/core/model/events";
import { openThread, worktreeFor, type OpenProgress } from "../../../../src/core/session/open-thread";
import { requestSteer } from "../../../../src/core/session/steer-inbox";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withRepo } from "../worktree/helpers";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

function options(store: ThreadStore, cwd: string, command = process.execPath) {
  const spec = {
    id: "fake-stdio",
    displayName: "Fake stdio",
    command,
    args: [AGENT_JS],
    env: { FAKE_AGENT_STEERING: "1" },
  };
  return {
    store,
    agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
    cwd,
    live: { flushMs: 0 },
    createRuntime: () => createAgentRuntime({ agent: spec, cwd }),
  };
}

test("a new thread in a worktree made for it: named in the thread, tagged, and steerable from another process", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const progress: OpenProgress[] = [];
    const place = await worktreeFor(repo, (p) => progress.push(p));
    assert.ok(place.worktree && place.cwd.startsWith(place.worktree.path));
    assert.deepEqual(
      progress.map((p) => p.type),
      ["worktree_created"],
    );
    const opened = await openThread({
      session: options(store, place.cwd),
      worktree: { ref: place.worktree, made: true },
      tags: ["session:fix"],
      onProgress: (p) => progress.push(p),
    });
    assert.ok(opened);
    const s = opened.session;
    try {
      assert.deepEqual(s.live.metadata.worktree, place.worktree);
      assert.ok(s.live.metadata.tags.includes("session:fix"));
      const events: RuntimeEvent[] = [];
      s.onEvent((e) => events.push(e));
      const sleeping = new Promise<void>((r) => s.onEvent((e) => e.type === "text" && /sleeping/.test(e.text) && r()));
      const turn = s.prompt("sleep 60000");
      await sleeping;
      await requestSteer(store, s.threadId, "also run the tests", 10_000);
      assert.equal((await turn).stopReason, "end_turn");
      assert.ok(events.some((e) => e.type === "user_text" && e.steered && e.text === "also run the tests"));
    } finally {
      await opened.close();
    }
    assert.equal(existsSync(place.worktree.path), true, "a thread that opened keeps its worktree");
  }));

test("a worktree made for a session that never opened is removed again; a prepared one too when prepare refuses", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const store = new ThreadStore(join(dir, "home"));
    for (const how of ["agent", "prepare"] as const) {
      const place = await worktreeFor(repo);
      const progress: OpenProgress[] = [];
      const opening = openThread({
        session: options(store, place.cwd, how === "agent" ? join(dir, "no-such-agent") : process.execPath),
        worktree: { ref: place.worktree!, made: true },
        prepare: async () => {
          if (how === "prepare") throw new Error("this machine cannot sandbox");
        },
        onProgress: (p) => progress.push(p),
      });
      await assert.rejects(opening);
      assert.equal(existsSync(place.worktree!.path), false, `${how}: the worktree is gone`);
      assert.deepEqual(progress, [{ type: "worktree_removed", ref: place.worktree, warnings: [] }]);
    }
  }));

test("outside git a new thread works in the folder itself, told as progress", () =>
  withRepo({}, async (_repo, dir) => {
    const progress: OpenProgress[] = [];
    assert.deepEqual(await worktreeFor(dir, (p) => progress.push(p)), { cwd: dir });
    assert.equal(progress[0]?.type, "worktree_skipped");
  }));
