// A Best of N started from a terminal and left (#35 `run --agent A --runs 2 --worktrees --check CMD --detach`), in
// the real extension host, with this window open all along: the CLI makes the worktrees, the thread host runs both
// candidates and the CLI returns; the window, without a reload, picks its record up (best-of-watch.ts): it tells the
// user in a notification (no panel opened unasked), follows both candidates to their end in the host, runs their
// checks and ranks them, and the checks' results go into the record. A record `acp-threads worktrees compare`
// follows is left to it while it runs.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli, FAKE, startCli } from "./host-cli";
import { seededRepo } from "./worktree-helpers";

/** `run --detach` best of 2 of the fake agent with a check; the record's id and the candidates' threads. */
async function detachBestOf(home: string, repo: string, prompt: string) {
  const r = await cli(home, [
    ...["run", "--agent", FAKE, "--runs", "2", "--worktrees", "--permission", "approve-all", "--no-sandbox"],
    ...["--check", "grep -q hi hello.txt", "--cwd", repo, "--detach", "--format", "json", prompt],
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { bestOf: string; threads: { threadId: string }[] };
  assert.equal(out.threads.length, 2);
  return out;
}

describe("a Best of N started from a terminal with --detach (#35)", () => {
  const seed = seededRepo("acp-host-bestof-cli-", { "a.txt": "a\n" }, { under: workspaceRoot });
  afterEach(async () => {
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  it("a window already open picks it up without a reload: told, follows both candidates, runs their checks, ranks them", async () => {
    const { hub, bestOfWatch } = await api(); // the setting left at its default (`window`): the CLI chose the host
    // activation's look made (a window open before the terminal's command): only a look after it can find the record
    await waitFor("the window's Best of N watch started", () => bestOfWatch.idle);
    const seen = hub.broker.notifier.shown;
    const { bestOf, threads } = await detachBestOf(hub.home, seed.repo, "terminal echo hi > hello.txt");
    const picked = await waitFor("this window picked it up", () => bestOfWatch.pickedUp.get(bestOf));
    const out = await picked;
    assert.ok(out, "this window followed it");
    try {
      assert.deepEqual(
        hub.broker.notifier.since(seen).filter((n) => n.message.startsWith("Best of N")),
        [{ severity: "info", message: "Best of N started from a terminal: 2 candidates", items: ["Open"] }],
      );
      assert.equal(out.view.panel, undefined, "no compare view opened unasked");
      assert.deepEqual(out.summaries.map((s) => s.threadId).sort(), threads.map((t) => t.threadId).sort());
      for (const s of out.summaries) {
        assert.equal(s.status, "done", JSON.stringify(s));
        assert.equal(s.check?.exitCode, 0, "its check ran in its worktree");
      }
      assert.equal(out.view.state.running, false, "ranked");
      await hub.bestOf.settled();
      const after = await hub.bestOf.store.get(bestOf);
      assert.ok(
        after?.candidates.every((c) => c.agent?.ok === true && c.check?.exitCode === 0),
        "recorded",
      );
      // the notification's Open
      assert.ok(out.view.show(), "shown");
      assert.ok(out.view.panel, "its compare view opened");
    } finally {
      out.view.dispose();
    }
  });

  it("a Best of N that `worktrees compare` follows is left to it while it runs, and picked up once it is gone", async () => {
    const { hub, bestOfWatch } = await api();
    await waitFor("the window's Best of N watch started", () => bestOfWatch.idle);
    const go = join(mkdtempSync(join(tmpdir(), "acp-bestof-go-")), "go");
    const prompt = `terminal while [ ! -f ${go} ]; do sleep 0.1; done; echo hi > hello.txt`;
    // the window looks only once `worktrees compare` has claimed the record (else it may be first: a race either wins)
    const release = bestOfWatch.holdForTests();
    let compare: ReturnType<typeof startCli> | undefined;
    let bestOf: string;
    try {
      ({ bestOf } = await detachBestOf(hub.home, seed.repo, prompt));
      compare = startCli(hub.home, ["worktrees", "compare", bestOf, "--format", "json"]);
      const pid = compare.pid;
      await waitFor("`worktrees compare` follows it", async () => {
        const r = await hub.bestOf.store.get(bestOf);
        return pid !== undefined && r?.owner?.pid === pid;
      });
    } finally {
      release();
    }
    await waitFor("the window leaves it to `worktrees compare`", () => bestOfWatch.leftToOwner(bestOf));
    assert.ok(!hub.bestOf.follows(bestOf), "not followed here");
    writeFileSync(go, "");
    const checked = await waitFor("both checks recorded", async () => {
      const r = await hub.bestOf.store.get(bestOf);
      return r?.candidates.every((c) => c.check) ? r : undefined;
    });
    assert.equal(checked.owner?.pid, compare!.pid, "still `worktrees compare`'s: the window did not take it over");
    const c = await compare!.done;
    assert.equal(c.code, 0, c.stderr);
    const rows = JSON.parse(c.stdout) as { status: string; check?: { exitCode: number } }[];
    assert.deepEqual(
      rows.map((r) => [r.status, r.check?.exitCode]),
      [
        ["done", 0],
        ["done", 0],
      ],
    );
    // its owner gone, the record (still open: neither worktree applied nor discarded) is this window's to show
    const out = await await waitFor("this window picked it up", () => bestOfWatch.pickedUp.get(bestOf));
    assert.ok(out, "this window followed it");
    try {
      for (const s of out.summaries) assert.equal(s.check?.exitCode, 0, JSON.stringify(s));
    } finally {
      out.view.dispose();
    }
  });
});
