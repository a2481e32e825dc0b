// A thread records the folders its sessions were allowed to write (#35, thread/folders.ts), in core, whichever front
// end opened it: a session with only its cwd records nothing (as before), a session resumed with a second folder (a
// multi-root window) adds it, and a later session with fewer folders takes none away. The stdio fake agent, real
// runtimes (their path guard's roots).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { openThread } from "../../../../src/core/session/open-thread";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
const spec = { id: "fake-stdio", displayName: "Fake stdio", command: process.execPath, args: [AGENT_JS] };

/** Opens (or resumes) a session in `cwd` whose runtime reaches `roots` too, and closes it: the thread's folders. */
async function session(store: ThreadStore, cwd: string, roots: string[], resume?: string) {
  const opened = await openThread({
    ...(resume ? { resume } : {}),
    session: {
      store,
      agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
      cwd,
      live: { flushMs: 0 },
      createRuntime: () =>
        createAgentRuntime({ agent: spec, cwd, workspaceRoots: [cwd, ...roots], additionalDirectories: roots }),
    },
  });
  assert.ok(opened);
  await opened.close();
  return { threadId: opened.session.threadId, folders: store.readMetadata(opened.session.threadId).folders };
}

test("a thread's folders: none for its cwd alone, a resumed session's second folder added, never taken away", () =>
  withTmp(async (dir) => {
    const [ws, other] = ["ws", "other"].map((f) => join(dir, f));
    mkdirSync(ws);
    mkdirSync(other);
    const store = new ThreadStore(join(dir, "home"));
    const first = await session(store, ws, []);
    assert.equal(first.folders, undefined, "its cwd alone: nothing recorded, as before");
    const again = await session(store, ws, [other], first.threadId);
    assert.deepEqual(again.folders, [ws, other], "a multi-root session adds its folders");
    const fewer = await session(store, ws, [], first.threadId);
    assert.deepEqual(fewer.folders, [ws, other], "a later session with fewer folders takes none away");
    const started = await session(store, ws, [other]);
    assert.deepEqual(started.folders, [ws, other], "a new thread records them at its start");
  }));
