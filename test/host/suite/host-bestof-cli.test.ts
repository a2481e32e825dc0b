// A Best of N started from a terminal and left (#35 `run --agent A --runs 2 --worktrees --check CMD --detach`), in
// the real extension host, with this window open all along: the CLI makes the worktrees, the thread host runs both
// candidates, and the host (not this window) runs their checks and ranks them. The window, without a reload, shows
// the record as the host writes it (best-of-watch.ts): it tells the user in a notification (no panel opened unasked),
// follows both candidates to ranked and offers Apply / Discard, and never claims it or runs a check while the host
// owns it (the check appends a line to a log: exactly one per candidate, with `worktrees compare` following too). A
// host killed mid-check leaves the record to the window, which finishes it (the checks cut short run again).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli, FAKE, startCli } from "./host-cli";
import { seededRepo } from "./worktree-helpers";
import type { BestOfResult } from "../../../src/vscode/worktrees/best-of-command";
import type { BestOfWatch } from "../../../src/vscode/worktrees/best-of-watch";

const lines = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

/** `run --detach` best of 2 of the fake agent with a check; the record's id and the candidates' threads. */
async function detachBestOf(home: string, repo: string, prompt: string, check: string) {
  const r = await cli(home, [
    ...["run", "--agent", FAKE, "--runs", "2", "--worktrees", "--permission", "approve-all", "--no-sandbox"],
    ...["--check", check, "--cwd", repo, "--detach", "--format", "json", prompt],
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { bestOf: string; threads: { threadId: string }[] };
  assert.equal(out.threads.length, 2);
  return out;
}

/**
 * The window's pickup of the record once it started, wrapped (`{ p }`): a promise returned bare would be awaited to
 * the pickup's end, by waitFor and by the await of this function.
 */
async function shown(watch: BestOfWatch, bestOf: string): Promise<{ p: Promise<BestOfResult | undefined> }> {
  return await waitFor("this window shows it", () => {
    const p = watch.pickedUp.get(bestOf);
    return p && { p };
  });
}

describe("a Best of N started from a terminal with --detach (#35)", () => {
  const seed = seededRepo("acp-host-bestof-cli-", { "a.txt": "a\n" }, { under: workspaceRoot });
  afterEach(async () => {
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  it("a window already open shows the host's Best of N, follows it to ranked, and runs no check itself", async () => {
    const { hub, bestOfWatch } = await api(); // the setting left at its default (`window`): the CLI chose the host
    // activation's look made (a window open before the terminal's command): only a look after it can find the record
    await waitFor("the window's Best of N watch started", () => bestOfWatch.idle);
    // armed: the watch told its probe (and read the records once more), and the probe is gone
    await bestOfWatch.armed;
    const probe = `${hub.layout.bestOfFile}.${process.pid}.armed`;
    await waitFor("the watch's probe is removed", () => !existsSync(probe));
    const seen = hub.broker.notifier.shown;
    const dir = mkdtempSync(join(tmpdir(), "acp-bestof-host-"));
    const [go, log] = [join(dir, "go"), join(dir, "checks.log")];
    const prompt = `terminal while [ ! -f ${go} ]; do sleep 0.1; done; echo hi > hello.txt`;
    const { bestOf, threads } = await detachBestOf(
      hub.home,
      seed.repo,
      prompt,
      `echo $PPID >> ${log} && grep -q hi hello.txt`,
    );
    const { p: picked } = await shown(bestOfWatch, bestOf);
    const compare = startCli(hub.home, ["worktrees", "compare", bestOf, "--format", "json"]);
    const owned = await hub.bestOf.store.get(bestOf);
    assert.equal(owned?.owner?.role, "host", "the host owns it: the window follows it without claiming it");
    assert.ok(hub.bestOf.follows(bestOf), "shown here");
    writeFileSync(go, "");
    const out = await picked;
    assert.ok(out, "this window followed it to its end");
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
      const c = await compare.done;
      assert.equal(c.code, 0, c.stderr);
      const rows = JSON.parse(c.stdout) as { status: string; check?: { exitCode: number } }[];
      assert.deepEqual(
        rows.map((r) => [r.status, r.check?.exitCode]),
        [
          ["done", 0],
          ["done", 0],
        ],
      );
      const after = await hub.bestOf.store.get(bestOf);
      assert.ok(after?.finishedAt, "the host ranked it");
      const hostPid = String(owned?.owner?.pid);
      assert.deepEqual(lines(log), [hostPid, hostPid], "exactly one check per candidate, both run by the host");
      // the notification's Open: Apply and Discard work on it as on any ranked Best of N
      assert.ok(out.view.show(), "shown");
      assert.ok(out.view.panel, "its compare view opened");
    } finally {
      out.view.dispose();
    }
  });

  it("the host killed mid-check: the window picks the Best of N up and runs the checks cut short", async () => {
    const { hub, bestOfWatch } = await api();
    await waitFor("the window's Best of N watch started", () => bestOfWatch.idle);
    const dir = mkdtempSync(join(tmpdir(), "acp-bestof-kill-"));
    const [go, log] = [join(dir, "go"), join(dir, "checks.log")];
    // the host's checks hang (until their guard stops them); once `go` exists a check passes
    const check = `echo $$ >> ${log}; if [ -f ${go} ]; then grep -q hi hello.txt; else sleep 600; fi`;
    const { bestOf } = await detachBestOf(hub.home, seed.repo, "terminal echo hi > hello.txt", check);
    const { p: picked } = await shown(bestOfWatch, bestOf);
    await waitFor("both checks run in the host", () => lines(log).length === 2);
    const owner = (await hub.bestOf.store.get(bestOf))?.owner;
    assert.equal(owner?.role, "host");
    writeFileSync(go, "");
    process.kill(owner!.pid, "SIGKILL");
    const out = await picked;
    assert.ok(out, "this window finished it");
    try {
      for (const s of out.summaries) assert.equal(s.check?.exitCode, 0, JSON.stringify(s));
      assert.equal(lines(log).length, 4, "each check cut short ran again, here");
      await hub.bestOf.settled();
      const after = await hub.bestOf.store.get(bestOf);
      assert.ok(
        after?.candidates.every((c) => c.check?.exitCode === 0),
        "recorded",
      );
      assert.equal(after?.finishedAt, undefined, "not the host's: it died");
    } finally {
      out.view.dispose();
    }
  });
});
