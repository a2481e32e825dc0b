// `acp-threads events --follow --format json` (#35 item 4), real processes: a detached run's turns give
// turn_started, then turn_ended with the stop reason and the files the turn edited, and a usage event with what the agent reported
// for the turn (tokens, the turn's cost from the cumulative usage_update, the context); the run's end gives ended.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { HostEvent, HostStatus } from "../../../../src/core/host/protocol";
import { FAKE_AGENT, startCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { cli, detached, hostEnv, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

test("events --follow: turn_ended with the files edited, usage with the turn's tokens and cost, then ended", () =>
  withTmpDir("acp-host-ev-", async (home) => {
    let follow: ReturnType<typeof startCli> | undefined;
    try {
      // the host is up, and stays up while events connects: a run that ended would let it leave after its idle
      // time (2 s), which a loaded machine's CLI start-up can outlast (events then found no host and printed nothing)
      await detached(home, ["--agent", FAKE_AGENT, "sleep 600000"]);
      let out = "";
      follow = startCli(["events", "--follow", "--format", "json"], {
        home,
        env: hostEnv(),
        onStdout: (s) => (out = s),
      });
      // events is connected once the host counts two clients: it and the status asking
      for (;;) {
        const st = JSON.parse((await cli(home, ["host", "status", "--format", "json"])).stdout) as Partial<HostStatus>;
        assert.ok(st.clients !== undefined, `the host runs: ${JSON.stringify(st)}`);
        if (st.clients >= 2) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const id = await detached(home, [
        "--agent",
        FAKE_AGENT,
        "--permission",
        "approve-all",
        "sleep 10",
        "cost 10 20 0.5",
        "cost 5 5 0.75",
        `write ${join(home, "out.txt")} hi`,
      ]);
      const events = () =>
        out
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as HostEvent);
      await waitFor(() => events().some((e) => e.kind === "ended" && e.threadId === id), "the run ended");
      const mine = events().filter((e) => e.threadId === id);
      const kinds = mine.map((e) => e.kind);
      assert.deepEqual(kinds, [
        "started",
        "turn_started",
        "turn_ended",
        "turn_started",
        "turn_ended",
        "usage",
        "turn_started",
        "turn_ended",
        "usage",
        "turn_started",
        "turn_ended",
        "ended",
      ]);
      const usage = mine.filter((e) => e.kind === "usage");
      assert.deepEqual(
        usage.map((e) => ({ tokens: e.tokens, cost: e.cost, context: e.context })),
        [
          {
            tokens: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
            cost: [{ currency: "USD", amount: 0.5 }],
            context: { used: 1000, size: 200000 },
          },
          {
            tokens: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
            cost: [{ currency: "USD", amount: 0.25 }],
            context: { used: 1000, size: 200000 },
          },
        ],
      );
      const turns = mine.filter((e) => e.kind === "turn_ended");
      assert.deepEqual(
        turns.map((e) => e.stopReason),
        ["end_turn", "end_turn", "end_turn", "end_turn"],
      );
      assert.deepEqual(turns[3]!.filesChanged, [join(home, "out.txt")]);
      assert.deepEqual(turns[0]!.filesChanged, []);
    } finally {
      await stopHost(home);
      follow?.child.kill();
    }
  }));
