// `threads import --from-agent AGENT` (#36 item 1): the agent's own sessions (listed by session/list, replayed by
// session/load) become threads that `threads show` prints and `run --thread` continues on the same agent session; a
// second import adds nothing.
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { historySession } from "../../../fixtures/fake-agents/history-script";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("imported sessions are shown and resumed on the agent's session; a second import adds nothing", () =>
  withTmpDir("acp-timport-", async (dir) => {
    const home = join(dir, "home");
    const cwd = join(dir, "project");
    mkdirSync(cwd);
    const history = join(dir, "history.json");
    const real = realpathSync(cwd);
    writeFileSync(
      history,
      JSON.stringify({
        sessions: [
          historySession("s1", real, 2, "2026-11-01T10:00:00.000Z"),
          historySession("s2", real, 1, "2026-11-02T10:00:00.000Z"),
          historySession("s3", join(dir, "elsewhere"), 1, "2026-11-03T10:00:00.000Z"),
        ],
      }),
    );
    const env = { FAKE_AGENT_HISTORY: history };
    const dry = await runCli(["threads", "import", "--from-agent", FAKE_AGENT, "--dry-run"], { home, cwd, env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /dry run \(nothing written\): imported 2, updated 0, unchanged 0, failed 0 of 2 sessions/);
    assert.deepEqual(new ThreadStore(home).ids(), []);

    const res = await runCli(["threads", "import", "--from-agent", FAKE_AGENT], { home, cwd, env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /\[1\/2\] Session s1\n\[2\/2\] Session s2\n/);
    assert.match(res.stdout, /imported 2, updated 0, unchanged 0, failed 0 of 2 sessions/);
    const store = new ThreadStore(home);
    const s1 = store.list().find((m) => m.agentSessionId === "s1")!;
    assert.equal(s1.origin?.kind, "agent-import");

    const show = await runCli(["threads", "show", s1.threadId], { home, cwd, env });
    assert.equal(show.code, 0, show.stderr);
    for (const text of ["question 1", "answer 1", "question 2", "answer 2", "Edit a.txt"])
      assert.ok(show.stdout.includes(text), `${text} in:\n${show.stdout}`);

    // recall indexes them as it indexes every thread of ours
    const found = await runCli(["recall", "--global", "answer", "2"], { home, cwd, env });
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /answer 2/);

    const run = await runCli(["run", "--thread", s1.threadId, "--format", "json", "go on"], { home, cwd, env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /echo: go on/);
    const opens = store.read(s1.threadId).records.flatMap((r) => (r.kind === "session_open" ? [r] : []));
    assert.deepEqual(
      opens.map((r) => [r.agentSessionId, r.origin]),
      [
        ["s1", "load"],
        ["s1", "load"],
      ],
      "the resume loaded the same agent session",
    );

    const again = await runCli(["threads", "import", "--from-agent", FAKE_AGENT, "--format", "json"], {
      home,
      cwd,
      env,
    });
    assert.equal(again.code, 0, again.stderr);
    const sum = JSON.parse(again.stdout);
    assert.deepEqual([sum.imported, sum.updated, sum.unchanged, sum.failed], [0, 0, 2, 0]);
    assert.equal(store.ids().length, 2);

    const all = await runCli(["threads", "import", "--from-agent", FAKE_AGENT, "--all"], { home, cwd, env });
    assert.equal(all.code, 1, "the other folder does not exist: its session fails");
    assert.match(all.stdout, /imported 0, updated 0, unchanged 2, failed 1 of 3 sessions/);

    const both = await runCli(["threads", "import", "--from-agent", FAKE_AGENT, "--all", "--cwd", cwd], {
      home,
      cwd,
      env,
    });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--cwd DIR or --all, not both/);
  }));

test("an agent that does not list its sessions: a clear error naming it", () =>
  withTmpDir("acp-timport-", async (home) => {
    const res = await runCli(["threads", "import", "--from-agent", FAKE_AGENT], {
      home,
      env: { FAKE_AGENT_NO_LIST: "1" },
    });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /does not list its sessions over ACP/);
  }));
