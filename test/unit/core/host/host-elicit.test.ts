// #35: an agent's elicitation in a hosted run goes to the clients attached to the thread (first answer wins, every
// other client is told who answered), against the real host, its real run path (the CLI's) and the real stdio fake
// agent. With no client attached it is declined, as before. Hostile: an answer from a client not attached to the
// thread, a malformed answer (not an action, content that does not fit the form), an answer for an elicitation
// that is not pending, and a second answer are refused, and the agent gets the one answer that won.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import type { PendingElicitation } from "../../../../src/core/host/protocol";
import { nullLogger } from "../../../../src/core/log";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { pushClient } from "../../../fixtures/host/push-client";
import { waitFor } from "../../../fixtures/spawner/wait";

const run = (dir: string, prompts: string[]) => ({
  t: "run" as const,
  run: {
    cwd: dir,
    prompts,
    agent: FAKE_AGENT,
    permission: "approve-all" as const,
    env: {},
    stallMs: 0,
    retry: "off" as const,
  },
});

const client = pushClient;

test("an elicitation goes to the attached clients: the first fitting answer from one of them wins, the rest is refused", () =>
  withCliHost("acp-host-elicit-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const window = await client(home, "a window", conns);
      const other = await client(home, "another client", conns);
      const outsider = await client(home, "an outsider", conns);
      const started = await window.c.request(run(dir, ["sleep 1500"]));
      const threadId = started.t === "started" ? started.threadId : "";
      await window.c.request({ t: "attach", threadId, from: 0, elicits: true });
      await other.c.request({ t: "attach", threadId, from: 0, elicits: true });
      await window.c.request({ t: "prompt", threadId, text: "elicit" });
      await waitFor(() => window.asked().length > 0 && other.asked().length > 0, "both clients are asked");
      const e: PendingElicitation = window.asked()[0]!;
      assert.equal(e.threadId, threadId);
      assert.equal(e.message, "Who is asking?");
      assert.equal(e.mode, "form");
      assert.deepEqual(e.mode === "form" ? e.form.fields.map((f) => f.name) : [], ["name", "count"]);
      assert.equal(other.asked()[0]!.requestId, e.requestId);
      assert.equal(outsider.asked().length, 0, "a client not attached is not shown it");
      const answer = (who: typeof window, body: unknown, requestId = e.requestId) =>
        who.c.request({ t: "elicited", threadId, requestId, answer: body as never });

      // a client not attached to the thread (it could have read the id from nowhere, but must not answer anyway)
      await assert.rejects(
        answer(outsider, { action: "accept", content: { name: "Mallory", count: 1 } }),
        /not attached/,
      );
      // malformed: no such action, content beside a decline, content that does not fit the form, fields it lacks
      await assert.rejects(answer(window, { action: "allow" }), /unknown action/);
      await assert.rejects(answer(window, "accept"), /not an object/);
      await assert.rejects(answer(window, { action: "decline", content: { name: "x" } }), /carries no content/);
      await assert.rejects(answer(window, { action: "accept", content: { name: "Ada", count: 42 } }), /does not fit/);
      await assert.rejects(
        answer(window, { action: "accept", content: { name: "Ada", count: 2, admin: true } }),
        /does not fit/,
      );
      await assert.rejects(answer(window, { action: "accept", content: { name: "Ada" } }), /count is required/);
      // an elicitation that is not pending
      await assert.rejects(answer(window, { action: "decline" }, "no-such-request"), /no elicitation pending/);
      assert.equal(window.pushes.filter((m) => m.t === "settled").length, 0, "none of them settled it");

      assert.equal((await answer(other, { action: "accept", content: { name: "Grace", count: 2 } })).t, "ok");
      // the second answer: refused, naming who answered first
      await assert.rejects(answer(window, { action: "decline" }), /already answered by another client/);
      await waitFor(() => window.pushes.some((m) => m.t === "settled"), "the window is told");
      const settled = window.pushes.find((m) => m.t === "settled");
      assert.deepEqual(settled, {
        t: "settled",
        threadId,
        requestId: e.requestId,
        optionId: null,
        by: "another client",
        action: "accept",
      });
      await waitFor(() => window.said('elicitation: accept {"name":"Grace","count":2}'), "the agent got the answer");
      const status = await window.c.request({ t: "status" });
      assert.equal(
        status.t === "status" && status.status.sessions.find((s) => s.threadId === threadId)?.pending,
        undefined,
      );
    } finally {
      for (const c of conns) c.close();
    }
  }));

test("an elicitation with no client attached that answers them is declined, as before; one withdrawn closes every client's prompt", () =>
  withCliHost("acp-host-elicit-none-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const window = await client(home, "a window", conns);
      const started = await window.c.request(run(dir, ["sleep 1500", "elicit"]));
      const threadId = started.t === "started" ? started.threadId : "";
      await window.c.request({ t: "events" }); // it hears the host's events, but follows no thread
      // a follower that asks nobody (a script's `attach` with no terminal) does not hold the agent's question up
      const watcher = await client(home, "a script", conns);
      await watcher.c.request({ t: "attach", threadId, from: 0 });
      const ended = () =>
        window.pushes.some((m) => m.t === "event" && m.event.kind === "ended" && m.event.threadId === threadId);
      await waitFor(ended, "the run ends");
      const store = new ThreadStore(home, { logger: nullLogger });
      const said = readFileSync(store.pathFor(threadId), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ThreadRecord)
        .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []));
      assert.ok(
        said.some((t) => t.includes("elicitation: decline")),
        said.join(" | "),
      );
      assert.equal(window.asked().length + watcher.asked().length, 0);

      // withdrawn: the turn is cancelled while the clients are asked; each is told it is settled
      const again = await window.c.request(run(dir, ["sleep 1500"]));
      const second = again.t === "started" ? again.threadId : "";
      await window.c.request({ t: "attach", threadId: second, from: 0, elicits: true });
      await window.c.request({ t: "prompt", threadId: second, text: "elicit" });
      await waitFor(() => window.asked().length > 0, "the client is asked");
      await window.c.request({ t: "cancel", threadId: second });
      await waitFor(() => window.pushes.some((m) => m.t === "settled" && m.threadId === second), "settled");
      const settled = window.pushes.find((m) => m.t === "settled" && m.threadId === second);
      assert.equal(settled?.t === "settled" && settled.action, "cancel");
    } finally {
      for (const c of conns) c.close();
    }
  }));
