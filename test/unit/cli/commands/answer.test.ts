// `acp-threads answer THREAD --option allow` without `--question` (#35, trust): when the agent waits on two
// permission questions at once (parallel tool calls), the host cannot know which one the person read, so it
// answers none: exit 1, each question listed by id and title (an agent's title printed inert), both still
// pending, no file written. Before, it approved the oldest, whichever the caller had seen. Naming each with
// `--question` answers it, and the output says which question was answered; with one left, the plain answer
// takes it (`--format json` says which). Real host, the built CLI, the stdio fake agent's `write-two`.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import type { HostPush } from "../../../../src/core/host/protocol";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { cli } from "../../../fixtures/host/host-cli";
import { pushClient } from "../../../fixtures/host/push-client";
import { waitFor } from "../../../fixtures/spawner/wait";

test("answer without --question refuses two pending questions and approves neither", () =>
  withCliHost("acp-answer-ambiguous-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const conns: HostConnection[] = [];
    try {
      const window = await pushClient(home, "VS Code window (ws, pid 1)", conns);
      // hostile: the agent's title for the first edit carries a terminal escape (OSC: set the window title)
      const a = join(ws, "a\u001b]0;pwned\u0007.txt");
      const b = join(ws, "b.txt");
      const r = await window.c.request({
        t: "run",
        run: fakeRun(ws, { permission: "ask", prompts: [`write-two ${a} ${b} hello`, "sleep 600000"] }),
      });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id, "the run started");
      await window.c.request({ t: "attach", threadId: id, from: 0 });
      const questions = () => window.pushes.flatMap((m) => (m.t === "question" ? [m.question] : []));
      const settled = () => window.pushes.filter((m): m is Extract<HostPush, { t: "settled" }> => m.t === "settled");
      await waitFor(() => questions().length === 2, "both questions asked at once");
      // the two reach the host in either order: each goes through the permission handler's own file look-ups
      // (the path's real path, the rules) concurrently, as the SDK hands parallel requests over
      const qa = questions().find((q) => q.title === `Write ${a}`);
      const qb = questions().find((q) => q.title === `Write ${b}`);
      assert.ok(qa && qb, `one question per file: ${JSON.stringify(questions().map((q) => q.title))}`);

      const refused = await cli(home, ["answer", id, "--option", "allow"]);
      assert.equal(refused.code, 1, `refused: ${refused.stderr}`);
      assert.equal(refused.stdout, "");
      assert.match(
        refused.stderr,
        /has 2 questions pending, so none was answered; name the one you answer with --question ID:/,
      );
      assert.ok(
        refused.stderr.includes(`\n  ${qa!.requestId}  Write ${join(ws, "a␛]0;pwned␇.txt")}\n`),
        refused.stderr,
      );
      assert.ok(refused.stderr.includes(`\n  ${qb!.requestId}  Write ${b}\n`), refused.stderr);
      assert.ok(!refused.stderr.includes("\u001b"), "the agent's escape reaches the terminal inert");
      // it approved nothing: both still waiting (the host says so to a client that attaches), no file written
      const late = await pushClient(home, "acp-threads attach (pid 2)", conns);
      await late.c.request({ t: "attach", threadId: id, from: 0 });
      await waitFor(() => late.pushes.filter((m) => m.t === "question").length === 2, "both re-sent to a new client");
      assert.deepEqual(settled(), [], "no question settled");
      assert.deepEqual([existsSync(a), existsSync(b)], [false, false], "no file written");

      // naming one answers it, and says which
      const second = await cli(home, ["answer", id, "--option", "allow", "--question", qb!.requestId]);
      assert.equal(second.code, 0, second.stderr);
      assert.equal(second.stdout, `yes "Allow"\nquestion ${qb!.requestId}: Write ${b}\n`);
      await waitFor(() => existsSync(b), "b written");
      // one left: the plain answer takes it, and says which (json)
      const first = await cli(home, ["answer", id, "--option", "allow", "--format", "json"]);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(JSON.parse(first.stdout), {
        requestId: qa!.requestId,
        title: `Write ${a}`,
        optionId: "yes",
        optionName: "Allow",
      });
      await waitFor(() => window.said(`wrote ${a}, wrote ${b}`), "the agent wrote both");
      assert.deepEqual(
        settled().map((s) => [s.requestId, s.optionId]),
        [
          [qb!.requestId, "yes"],
          [qa!.requestId, "yes"],
        ],
      );
    } finally {
      for (const c of conns) c.close();
    }
  }));
