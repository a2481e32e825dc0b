// A Best of N started from a terminal and left (#35 `run --agent A --runs 2 --worktrees --check CMD --detach`), in
// the real extension host: the CLI makes the worktrees, the thread host runs both candidates and the CLI returns;
// its record is the window's kind, so this window picks it up as it picks up a record after a reload (the compare
// view follows both candidates to their end in the host, runs their checks, ranks them) and the checks' results
// go into the record.
import assert from "node:assert/strict";
import { resumeRecord } from "../../../src/vscode/worktrees/best-of-resume";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli, FAKE } from "./host-cli";
import { seededRepo } from "./worktree-helpers";

describe("a Best of N started from a terminal with --detach (#35)", () => {
  const seed = seededRepo("acp-host-bestof-cli-", { "a.txt": "a\n" }, { under: workspaceRoot });
  afterEach(async () => {
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  it("the window picks its record up: the compare view follows both candidates, runs their checks, ranks them", async () => {
    const { hub } = await api(); // the setting left at its default (`window`): the CLI chose the host
    const r = await cli(hub.home, [
      ...["run", "--agent", FAKE, "--runs", "2", "--worktrees", "--permission", "approve-all", "--no-sandbox"],
      ...["--check", "grep -q hi hello.txt", "--cwd", seed.repo, "--detach", "--format", "json"],
      "terminal echo hi > hello.txt",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const { bestOf, threads } = JSON.parse(r.stdout) as { bestOf: string; threads: { threadId: string }[] };
    assert.equal(threads.length, 2);
    const record = await waitFor("the CLI's record", () => hub.bestOf.store.get(bestOf));
    const out = await resumeRecord(hub, record);
    assert.ok(out, "this window followed it");
    try {
      assert.deepEqual(out.summaries.map((s) => s.threadId).sort(), threads.map((t) => t.threadId).sort());
      for (const s of out.summaries) {
        assert.equal(s.status, "done", JSON.stringify(s));
        assert.equal(s.check?.exitCode, 0, "its check ran in its worktree");
      }
      await hub.bestOf.settled();
      const after = await hub.bestOf.store.get(bestOf);
      assert.ok(
        after?.candidates.every((c) => c.agent?.ok === true && c.check?.exitCode === 0),
        "recorded",
      );
    } finally {
      out.view.panel.dispose();
    }
  });
});
