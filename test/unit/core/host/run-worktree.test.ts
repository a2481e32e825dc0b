// A run in a worktree the asking client made (`DetachedRun.preparedWorktree`, #35: Best of N's candidates in the
// thread host). Against the real host in this process, its real run path (the CLI's) and the fake agent over stdio.
// Hostile: a worktree outside the repository's worktrees folder (a real git worktree all the same), a link in that
// folder leading out, a worktree of another repository (named as this one's or as its own), a repository that is
// not the client's, a relative path, a path with `..`, a folder outside the worktree, a worktree for a stored
// thread: each is refused and no agent starts (before the check the host ran the agent wherever a client said).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import type { DetachedRun } from "../../../../src/core/host/protocol";
import type { WorktreeRef } from "../../../../src/core/model/records";
import { homeLayout } from "../../../../src/core/store/paths";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { createWorktree } from "../../../../src/core/worktree/create";
import { worktreesDirOf } from "../../../../src/core/worktree/layout";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { g } from "../worktree/helpers";

function repoAt(path: string): string {
  mkdirSync(path, { recursive: true });
  g(path, "init", "-q", "-b", "main");
  g(path, "commit", "-qm", "seed", "--allow-empty");
  return path;
}

const inWorktree = (ref: WorktreeRef, cwd = ref.path, more: Partial<DetachedRun> = {}): DetachedRun =>
  fakeRun(cwd, { preparedWorktree: { ref, cwd }, ...more });

test("a run in a worktree the client made runs there only when it is one the host would have made", () =>
  withCliHost("acp-host-wt-", async ({ dir, home }) => {
    const ws = repoAt(join(dir, "ws")); // the client's folder, a repository
    const other = repoAt(join(dir, "other")); // another repository, not the client's
    const made = await createWorktree(ws);
    const theirs = await createWorktree(other);
    // a real worktree of ws, but outside its worktrees folder
    const loose = join(dir, "loose");
    g(ws, "worktree", "add", "--detach", "-q", loose);
    // a link in ws's worktrees folder that leads to it
    const link = join(worktreesDirOf(ws), "feedbeef");
    symlinkSync(loose, link);
    const ref = made.ref;
    const editor = await connectHost({ home, client: "an editor", serves: { fs: false, roots: [ws] } });
    assert.ok(editor);
    try {
      const refused = /the run's worktree .* is refused/;
      const cases: [string, DetachedRun][] = [
        ["a worktree outside the worktrees folder", inWorktree({ ...ref, path: loose })],
        ["a link in the worktrees folder leading out", inWorktree({ ...ref, path: link })],
        ["another repository's worktree named as this one's", inWorktree({ ...ref, path: theirs.ref.path })],
        ["another repository's worktree, as its own", inWorktree(theirs.ref)],
        ["the repository itself", inWorktree({ ...ref, path: ws })],
        ["a subfolder named as the repository", inWorktree({ ...ref, repo: join(ws, ".git") })],
        ["a relative path", inWorktree({ ...ref, path: relative(process.cwd(), ref.path) })],
        [
          "a path with ..",
          inWorktree({ ...ref, path: `${ref.path}/../../${basename(dirname(ref.path))}/${basename(ref.path)}` }),
        ],
        [
          "a path with .. to another repository's",
          inWorktree({ ...ref, path: `${ws}/../${relative(dir, theirs.ref.path)}` }),
        ],
        ["a folder outside the worktree", inWorktree(ref, loose)],
        ["a stored thread", inWorktree(ref, ref.path, { thread: "t-1" })],
        ["a new worktree too", inWorktree(ref, ref.path, { worktree: true })],
      ];
      for (const [what, run] of cases) await assert.rejects(editor.request({ t: "run", run }), refused, what);
      const bare = await connectHost({ home, client: "a client that said no folders" });
      assert.ok(bare);
      await assert.rejects(bare.request({ t: "run", run: inWorktree(ref) }), refused, "no folders said");
      bare.close();
      const st = await editor.request({ t: "status" });
      assert.equal(st.t === "status" && st.status.sessions.length, 0, "no run started");
      const threads = homeLayout(home).threadsDir;
      assert.deepEqual(existsSync(threads) ? readdirSync(threads) : [], [], "no thread was started");

      // the worktree the client made, its session in the same subfolder as asked in the repository
      const ok = await editor.request({ t: "run", run: inWorktree(ref) });
      assert.equal(ok.t, "started");
      const id = ok.t === "started" ? ok.threadId : "";
      const store = new ThreadStore(home);
      await waitFor(() => store.read(id).records.some((r) => r.kind === "turn_end"), "the turn ended", 20_000);
      const m = store.read(id).metadata;
      assert.deepEqual(m.worktree, ref, "the thread records its worktree");
      assert.equal(m.cwd, ref.path, "its session works in the worktree");
      assert.equal(m.startedFrom, "automation", "a run with no terminal");
    } finally {
      editor.close();
    }
  }));
