// #35: any window or terminal can answer a hosted run's permission question, and the first answer wins. Here a
// window (a client attached to the thread, as the editor's is) and `acp-threads answer` (the built CLI, its own
// process) answer the same question: both in flight at once, the CLI's first, the window's first. Each time exactly
// one wins; the other is told "already answered" naming the winner (the CLI exits 1); every attached client (the
// window and a terminal's `attach`) is told once who answered, which closes its prompt; the host's `answered` event
// names the winner, and the thread's permission record holds the winner's option. Real host, real CLI, real agent.
// Each answer names the question it answers (the window's card, `answer --question`): before, an answer that lost
// the race was given to the question the agent asked next, which nobody had seen (the first run of this test: both
// "won", the CLI's allow went to question 2); a late answer to a settled question is refused now.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import type { HostPush } from "../../../../src/core/host/protocol";
import { HostRefusal } from "../../../../src/core/host/protocol-refusal";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { cli } from "../../../fixtures/host/host-cli";
import { pushClient } from "../../../fixtures/host/push-client";
import { waitFor } from "../../../fixtures/spawner/wait";

const WINDOW = "VS Code window (ws, pid 1)";
const CLI = /acp-threads answer \(pid \d+\)/;

/** A request's outcome: its optionId, or the error's message (and the answer that won, a typed refusal's). */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (r) => ({ won: true, said: (r as { optionId?: string }).optionId ?? "", first: undefined }),
    (err: unknown) => ({
      won: false,
      said: err instanceof Error ? err.message : String(err),
      first: err instanceof HostRefusal && err.reason === "answered" ? err.answered : undefined,
    }),
  );

test("a window and `acp-threads answer` answer the same question: one wins, the other is told who did", () =>
  withCliHost("acp-host-answer-race-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const conns: HostConnection[] = [];
    try {
      const window = await pushClient(home, WINDOW, conns);
      const terminal = await pushClient(home, "acp-threads attach (pid 2)", conns);
      await window.c.request({ t: "events" });
      const file = (n: number) => join(ws, `out-${n}.txt`);
      const writes = [1, 2, 3].map((n) => `write ${file(n)} hello`);
      const r = await window.c.request({
        t: "run",
        run: fakeRun(ws, { permission: "ask", prompts: [...writes, "sleep 600000"] }),
      });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id, "the run started");
      for (const c of [window, terminal]) await c.c.request({ t: "attach", threadId: id, from: 0 });
      const questions = (pushes: HostPush[]) => pushes.flatMap((m) => (m.t === "question" ? [m.question] : []));
      const settled = (pushes: HostPush[], requestId: string) =>
        pushes.filter((m) => m.t === "settled" && m.requestId === requestId);
      let asked = ""; // the question both answer: the one their prompts show
      const byCli = () => cli(home, ["answer", id, "--option", "allow", "--question", asked]);
      const byWindow = () => window.c.request({ t: "answer", threadId: id, option: "reject", requestId: asked });
      const said = (c: Awaited<ReturnType<typeof byCli>>) => ({
        won: c.code === 0,
        said: c.code === 0 ? (c.stdout.split("\n")[0] ?? "") : c.stderr,
        which: c.code === 0 ? c.stdout.split("\n")[1] : undefined, // the question it answered
      });
      const rounds = [
        {
          how: "both in flight",
          answer: async () => {
            const [c, w] = await Promise.all([byCli(), outcome(byWindow())]);
            return { cli: said(c), win: w };
          },
        },
        {
          // the CLI's answer settled it while the window's prompt was still open (it had not read the `settled` push)
          how: "the CLI's first",
          answer: async () => {
            const c = said(await byCli());
            return { cli: c, win: await outcome(byWindow()) };
          },
        },
        {
          how: "the window's first",
          answer: async () => {
            const w = await outcome(byWindow());
            return { cli: said(await byCli()), win: w };
          },
        },
      ];
      for (const [i, round] of rounds.entries()) {
        await waitFor(
          () => questions(window.pushes).length > i && questions(terminal.pushes).length > i,
          `question ${i + 1} shown to both clients`,
        );
        const q = questions(window.pushes)[i]!;
        assert.equal(questions(terminal.pushes)[i]!.requestId, q.requestId);
        if (i > 0) {
          // hostile: a late answer naming the question before (settled) while this one waits is refused; it never
          // answers the question the agent asked next (before, the host took the oldest pending one)
          const late = await outcome(byWindow());
          assert.equal(late.won, false, `a late answer to question ${i} answered question ${i + 1}`);
          assert.match(late.said, /the question was already answered by /);
          assert.equal(settled(window.pushes, q.requestId).length, 0, "the waiting question is still open");
        }
        asked = q.requestId;
        const { cli: c, win: w } = await round.answer();
        const what = `${round.how}: the CLI ${JSON.stringify(c)}, the window ${JSON.stringify(w)}`;
        assert.equal(Number(c.won) + Number(w.won), 1, `exactly one answer wins (${what})`);
        if (round.how === "the CLI's first") assert.ok(c.won, what);
        if (round.how === "the window's first") assert.ok(w.won, what);
        const winner = c.won ? CLI : new RegExp(WINDOW.replace(/[()]/g, "\\$&"));
        const option = c.won ? "yes" : "no";
        // the CLI prints the option's id and label, the window's reply carries the id
        const told = c.won ? 'yes "Allow"' : "no";
        assert.equal(c.won ? c.said : w.said, told, `the winner is told its option (${what})`);
        if (c.won) assert.equal(c.which, `question ${q.requestId}: Write ${file(i + 1)}`, what);
        assert.match(c.won ? w.said : c.said, /the question was already answered by /, what);
        assert.match(c.won ? w.said : c.said, winner, `the loser is told who answered (${what})`);
        // the window's refusal is typed and carries the answer that won: its card shows that answer (not its own)
        if (c.won) assert.deepEqual([w.first?.optionId, CLI.test(w.first?.by ?? "")], ["yes", true], what);
        // every attached client closes its prompt: told once, by the winner, with the winning option
        for (const client of [window, terminal]) {
          await waitFor(() => settled(client.pushes, q.requestId).length > 0, `${round.how}: settled pushed`);
          const s = settled(client.pushes, q.requestId);
          assert.equal(s.length, 1, `${round.how}: settled once`);
          const m = s[0] as Extract<HostPush, { t: "settled" }>;
          assert.match(m.by, winner, what);
          assert.equal(m.optionId, option, what);
        }
        const answered = window
          .events(id, "answered")
          .filter((e) => e.kind === "answered" && e.requestId === q.requestId);
        assert.equal(answered.length, 1);
        assert.match(answered[0]!.kind === "answered" ? answered[0]!.by : "", winner, what);
        await waitFor(
          () => new ThreadStore(home).read(id).records.filter((x) => x.kind === "permission").length > i,
          `${round.how}: the decision recorded`,
        );
        const rec = new ThreadStore(home).read(id).records.filter((x) => x.kind === "permission")[i]!;
        assert.ok(rec.kind === "permission" && rec.decidedBy === "user" && rec.optionId === option, what);
        // the record names who answered (the panel's history and attach's replay after a reload)
        assert.match(rec.kind === "permission" ? (rec.answeredBy ?? "") : "", winner, what);
        await waitFor(
          () => new ThreadStore(home).read(id).records.filter((x) => x.kind === "turn_end").length > i,
          "the turn ended",
        );
        assert.equal(existsSync(file(i + 1)), c.won, `the file written only when allow won (${what})`);
      }
    } finally {
      for (const c of conns) c.close();
    }
  }));
