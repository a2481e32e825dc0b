// A prompt with parts that build to nothing, sent to a hosted run kept open (#35). Hostile: any client of the host
// can send `parts: []`, only empty text, or parts the host drops as unparsable. The host refuses the `prompt`
// request ("the prompt is empty"), as the turn would, and the run goes on with the same agent. Before, the host
// queued it, the turn's buildPrompt threw a usage error and `runOnThread` rethrew it: the whole run ended, its agent
// process with it. A prompt without parts whose text is not text is refused too. Real processes: a host in
// this process with the CLI's run path, the stdio fake agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { WirePromptPart } from "../../../../src/core/host/wire-context";
import { withKeptOpenRun } from "../../../fixtures/host/kept-open";

const EMPTY: { why: string; parts: WirePromptPart[] }[] = [
  { why: "no parts", parts: [] },
  { why: "only empty text", parts: [{ type: "text", text: "" }] },
  { why: "a part the host drops", parts: [{ type: "bogus" } as unknown as WirePromptPart] },
];

test("a prompt whose parts are empty is refused by an open run; the run goes on with the same agent", () =>
  withKeptOpenRun("acp-host-empty-", async ({ conn, run }) => {
    for (const { why, parts } of EMPTY)
      await assert.rejects(
        conn.request({ t: "prompt", threadId: run.threadId, text: "", parts }),
        /the prompt is empty/,
        why,
      );
    // without parts its text is the prompt, and must be text: a number or null failed the turn before the agent
    // saw it, told to no client (an empty text goes to the agent, as `run ""` sends it)
    for (const text of [5, null, ["two"]])
      await assert.rejects(
        conn.request({ t: "prompt", threadId: run.threadId, text: text as unknown as string }),
        /the prompt's text must be a string/,
        JSON.stringify(text),
      );
    await run.goesOn();
  }));
