// An exec run in a new worktree, in the thread host (#35): the window makes the worktree beside the repository
// (outside its folders) and sends it as the run's `preparedWorktree`; the host runs it there only when it is a
// worktree the host would have made itself for a repository of the client's folders (run-roots.ts
// `assertWorktreeOffered`, the check a Best of N candidate's run gets). Real host in this process, real pty.
// Hostile: a real worktree of the client's repository outside its worktrees folder, a link in that folder leading
// out, a relative path, another repository's worktree (named as this one's or as its own), a folder that is not the
// worktree's, roots besides it, a client that named no folders: each is refused and nothing starts. The run is shown
// to the windows of its repository (it is outside their folders), not to a window of another one.
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import type { HostExec } from "../../../../src/core/host/protocol-exec";
import type { WorktreeRef } from "../../../../src/core/model/records";
import { createWorktree } from "../../../../src/core/worktree/create";
import { worktreesDirOf } from "../../../../src/core/worktree/layout";
import { listedExecRuns } from "../../../fixtures/host/exec-listed";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { viewer } from "../../../fixtures/host/terminal-viewer";
import { waitFor } from "../../../fixtures/spawner/wait";
import { g, repoAt } from "../worktree/helpers";

/** `pwd` run in the worktree `ref` (its folder `cwd`), as the window sends it. */
const inWorktree = (ref: WorktreeRef, cwd = ref.path, more: Partial<HostExec> = {}): HostExec => ({
  command: "/bin/sh",
  args: ["-c", "pwd -P"],
  cwd,
  preparedWorktree: { ref, cwd },
  ...more,
});

test("an exec run in a worktree the window made runs in the host, there only when it is one the host would make", () =>
  withCliHost("acp-host-exec-wt-", async ({ dir, home }) => {
    const ws = repoAt(join(dir, "ws")); // the window's folder, a repository
    const other = repoAt(join(dir, "other")); // a repository that is not the window's
    const made = await createWorktree(ws);
    const theirs = await createWorktree(other);
    const loose = join(dir, "loose"); // a real worktree of ws, outside its worktrees folder
    g(ws, "worktree", "add", "--detach", "-q", loose);
    const link = join(worktreesDirOf(ws), "feedbeef"); // in the worktrees folder, leading out
    symlinkSync(loose, link);
    const { ref } = made;
    const v = await viewer(home, [ws]);
    const none = await viewer(home, [], null);
    const elsewhere = await viewer(home, [other]); // a window on another repository
    try {
      const refused = /the run's worktree .* is refused/;
      const cases: [string, HostExec, RegExp?][] = [
        ["a worktree of the repository outside its worktrees folder", inWorktree({ ...ref, path: loose })],
        ["a link in the worktrees folder leading out", inWorktree({ ...ref, path: link })],
        ["a relative path", inWorktree({ ...ref, path: relative(process.cwd(), ref.path) }, ref.path)],
        ["another repository's worktree named as this one's", inWorktree({ ...ref, path: theirs.ref.path })],
        ["another repository's worktree, as its own", inWorktree(theirs.ref)],
        ["the repository itself", inWorktree({ ...ref, path: ws })],
        ["a folder outside the worktree", inWorktree(ref, loose)],
        [
          "a folder other than the worktree's",
          { ...inWorktree(ref), cwd: ws },
          /cwd must be the prepared worktree's cwd/,
        ],
        ["roots besides it", inWorktree(ref, ref.path, { roots: [ws] }), /roots go without a prepared worktree/],
      ];
      for (const [what, exec, why] of cases)
        await assert.rejects(v.conn.request({ t: "exec_start", exec }), why ?? refused, what);
      await assert.rejects(
        none.conn.request({ t: "exec_start", exec: inWorktree(ref) }),
        /refused: .*none said/,
        "a client that named no folders",
      );
      assert.deepEqual(listedExecRuns(home), [], "no run was started");

      const r = await v.conn.request({ t: "exec_start", exec: inWorktree(ref) });
      assert.equal(r.t, "exec_started");
      const exec = r.t === "exec_started" ? r.exec : (undefined as never);
      assert.deepEqual(exec.worktree, ref, "the run says its worktree");
      await waitFor(() => v.exits.has(exec.runId), "it ends");
      assert.ok(v.output.get(exec.runId)?.includes(ref.path), "it ran in the worktree");
      assert.equal(v.terminals[0]?.exec?.runId, exec.runId, "shown to the window of its repository");
      await elsewhere.conn.request({ t: "status" }); // its pushes so far came before this answer
      assert.deepEqual(elsewhere.terminals, [], "not shown to a window of another repository");
      const run = listedExecRuns(home).find((l) => l.id === exec.runId);
      assert.deepEqual(run?.worktree, ref, "the registry records its worktree");
      assert.equal(run?.ownerPid, process.pid, "owned by the host");
    } finally {
      for (const c of [v, none, elsewhere]) c.conn.close();
    }
  }));
