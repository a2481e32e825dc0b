// "Send now" with context into a hosted run's turn (#35): the `steer` request carries the prompt as composed
// (`parts`), the host checks it as a `prompt`'s parts (host-runner.ts assertInsideRun) and steers its blocks into the
// running turn. Hostile: a chip naming a file outside the run's folders (by its path, through a symlink in the
// folder, by `..`) is refused before the agent sees anything: nothing is steered, its text never reaches the agent.
// Real processes: a host in this process with the CLI's run path, the stdio fake agent that takes steering.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import type { WirePromptPart } from "../../../../src/core/host/wire-context";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { contextFolders, withHostedRun } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const withChip = (path: string): WirePromptPart[] => [
  { type: "text", text: "see " },
  { type: "context", item: { kind: "file", label: "chip", uri: pathToFileURL(path).href, path } },
];

test("a steer with context outside the run's folders is refused before the agent sees it; one inside is steered", () =>
  withHostedRun(
    "acp-host-steer-",
    (_ws, dir) => ({
      keepOpen: true,
      prompts: ["sleep 60000"],
      env: { FAKE_AGENT_STEERING: "1", FAKE_AGENT_PROMPT_CAPS: "embeddedContext" },
      protocolLog: join(dir, "protocol.ndjson"),
    }),
    async ({ dir, home, ws, conn, threadId: id, of }) => {
      await waitFor(() => of("turn_started").length === 1, "the turn running");
      // the agent takes a steer once its turn has the prompt: it says "sleeping" then (turn_started comes before
      // the prompt reaches it, and a steer in between is answered promptRequired, as a real agent's would be)
      await waitFor(() => /sleeping/.test(JSON.stringify(new ThreadStore(home).read(id).records)), "the agent's turn");
      for (const [what, path] of [
        ["by its path", join(dir, "secret.txt")],
        ["through a symlink in the folder", join(ws, "up", "secret.txt")],
        ["by ..", join(ws, "..", "secret.txt")],
      ])
        await assert.rejects(
          conn.request({ t: "steer", threadId: id, text: "see @chip forged", parts: withChip(path) }),
          /outside the run's folders/,
          what,
        );
      const steered = await conn.request({
        t: "steer",
        threadId: id,
        text: "see @chip",
        parts: withChip(join(ws, "src", "a.ts")),
      });
      assert.deepEqual(steered.t === "steered" ? steered.outcome : steered, "injected");
      await waitFor(() => of("turn_ended").length === 1, "the steered turn ended");
      const records = new ThreadStore(home).read(id).records;
      const steeredMessages = records.flatMap((x) => (x.kind === "user_message" && x.steered ? [x] : []));
      assert.deepEqual(
        steeredMessages.map((m) => [m.text, m.context?.map((c) => c.label)]),
        [["see @chip", ["chip"]]],
        "only the one inside was steered, with its chip",
      );
      await conn.request({ t: "stop_thread", threadId: id });
      await waitFor(() => of("ended").length === 1, "the run ended");
      const log = join(dir, "protocol.ndjson");
      await waitFor(() => {
        try {
          return readFileSync(log, "utf8").length > 0;
        } catch {
          return false;
        }
      }, "the protocol log");
      const traffic = readFileSync(log, "utf8");
      assert.match(traffic, /inside line/, "the steered chip's file went to the agent");
      assert.doesNotMatch(traffic, /SECRET|forged/, "nothing refused reached the agent");
    },
    contextFolders,
  ));
