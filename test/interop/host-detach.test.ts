// The thread host with a real agent (#35): codex-acp runs a turn through `run --detach --permission ask`; the
// turn waits in the host for its permission question, `answer --option allow` from another process lets it go
// on, `attach` follows it to its end; hello.txt is written and `host stop --force` leaves no process behind.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, PROMPT, runArgs, runCli, setUp, skipUnlessInstalled, startCli } from "./harness";

test(
  "codex-acp: a detached turn waits for an answer from another process, attach follows it to its end",
  {
    timeout: AGENT_TIMEOUT_MS,
    skip: skipUnlessInstalled,
  },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const started = await runCli(t, runArgs(t, "ask", PROMPT, ["--detach"]));
      assert.equal(started.code, 0, started.stderr);
      const { threadId } = JSON.parse(started.stdout) as { threadId: string };
      const attach = startCli(t, ["attach", threadId, "--format", "json"]);
      let answered = 0;
      let done = false;
      void attach.result.then(() => (done = true));
      while (!done) {
        let a = await runCli(t, ["answer", threadId, "--option", "allow"]);
        // codex asked two at once: none was answered; answer the first listed by its id
        const listed = /so none was answered[^\n]*\n {2}(\S+) /.exec(a.stderr)?.[1];
        if (listed) a = await runCli(t, ["answer", threadId, "--option", "allow", "--question", listed]);
        if (a.code === 0) answered++;
        else assert.match(a.stderr, /no question pending|already answered|does not hold/);
        await new Promise((r) => setTimeout(r, 300));
      }
      const r = await attach.result;
      assert.equal(r.code, 0, r.stderr);
      assert.ok(answered >= 1, "codex-acp asked at least once");
      assert.match(r.stderr, /answered .* by acp-threads answer \(pid \d+\)/);
      assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
    } finally {
      await runCli(t, ["host", "stop", "--force"]);
      await t.cleanup();
    }
  },
);
