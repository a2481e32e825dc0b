// "Send now" with context into a hosted run's turn (#35): the `steer` request carries the prompt as composed
// (`parts`), the host checks it as a `prompt`'s parts (host-runner.ts assertInsideRun) and steers its blocks into the
// running turn. Hostile: a chip naming a file outside the run's folders (by its path, through a symlink in the
// folder, by `..`) is refused before the agent sees anything: nothing is steered, its text never reaches the agent.
// Real processes: a host in this process with the CLI's run path, the stdio fake agent that takes steering.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import type { WirePromptPart } from "../../../../src/core/host/wire-context";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const SECRET = "TOP SECRET LINE";
const withChip = (path: string): WirePromptPart[] => [
  { type: "text", text: "see " },
  { type: "context", item: { kind: "file", label: "chip", uri: pathToFileURL(path).href, path } },
];

test("a steer with context outside the run's folders is refused before the agent sees it; one inside is steered", () =>
  withCliHost("acp-host-steer-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(join(ws, "src"), { recursive: true });
    writeFileSync(join(ws, "src", "a.ts"), "inside line\n");
    writeFileSync(join(dir, "secret.txt"), `${SECRET}\n`);
    symlinkSync(dir, join(ws, "up")); // a link in the folder that leads out of it
    const log = join(dir, "protocol.ndjson");
    const { conn, events } = await listening(home);
    try {
      const r = await conn.request({
        t: "run",
        run: fakeRun(ws, {
          keepOpen: true,
          prompts: ["sleep 60000"],
          env: { FAKE_AGENT_STEERING: "1", FAKE_AGENT_PROMPT_CAPS: "embeddedContext" },
          protocolLog: log,
        }),
      });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id);
      const of = (kind: string) => events.filter((e) => e.threadId === id && e.kind === kind);
      await waitFor(() => of("turn_started").length === 1, "the turn running");
      const secret = join(dir, "secret.txt");
      for (const [what, path] of [
        ["by its path", secret],
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
    } finally {
      conn.close();
    }
  }));
