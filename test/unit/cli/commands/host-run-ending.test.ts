// A prompt that reaches a hosted run as it ends (#35, host parity row 4): the host refuses it with a typed reason
// (protocol.ts HostErrorCode), not only the CLI's wording, so the editor's panel can continue the thread instead of
// showing "run it again with --thread". Real processes: a host with the CLI's run path, the fake stdio agent run
// `stubborn` (it outlives its stdin for the engine's grace period: the run is ending, the host still holds it).
// A second run of a thread the host holds is refused as `held` (one writer per thread: it takes a prompt instead),
// before the run is tried: before, the run failed on the thread file's lock and the client had only its wording.
import assert from "node:assert/strict";
import { test } from "node:test";
import { refusalCode } from "../../../../src/core/host/protocol-refusal";
import { fakeRun, withHostedRun } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const refused = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (err: unknown) => refusalCode(err) ?? `untyped: ${String(err)}`,
  );

test("a prompt to a run that is ending is refused as run_ending, one after its end as not_held", () =>
  withHostedRun(
    "acp-host-ending-",
    () => ({ keepOpen: true, prompts: ["sleep 60000"], env: { FAKE_AGENT_SCENARIO: "stubborn" } }),
    async ({ conn, threadId: id, of }) => {
      await waitFor(() => of("turn_started").length > 0, "the turn started");
      await conn.request({ t: "stop_thread", threadId: id });
      const ending = await refused(conn.request({ t: "prompt", threadId: id, text: "one more" }));
      assert.equal(of("ended").length, 0, "asked while the host still held it");
      assert.equal(ending, "run_ending");
      await waitFor(() => of("ended").length > 0, "the run ended", 20_000);
      assert.equal(await refused(conn.request({ t: "prompt", threadId: id, text: "later" })), "not_held");
    },
  ));

test("a run for a thread the host holds is refused as held; its prompt goes into the held run", () =>
  withHostedRun(
    "acp-host-held-",
    () => ({ keepOpen: true, prompts: ["sleep 60000"] }),
    async ({ ws, conn, threadId: id, of }) => {
      await waitFor(() => of("turn_started").length > 0, "the turn started");
      const again = conn.request({ t: "run", run: fakeRun(ws, { thread: id, prompts: ["next"], keepOpen: true }) });
      assert.equal(await refused(again), "held");
      assert.equal(await refused(conn.request({ t: "prompt", threadId: id, text: "next" })), "accepted");
      assert.equal(of("started").length, 1, "no second run started");
      await conn.request({ t: "stop_thread", threadId: id });
    },
  ));
