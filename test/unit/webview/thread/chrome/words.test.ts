import assert from "node:assert/strict";
import { test } from "node:test";
import { whoDecidesText } from "../../../../../src/webview/thread/chrome/words";

test("the mode line ends each sentence with one period, whether or not the agent's description has one (#37)", () => {
  const dotted = whoDecidesText({
    mode: "Read-only",
    description: "Requires approval to edit files and access the internet.",
    agentDecides: false,
  });
  assert.equal(
    dotted,
    'Agent mode "Read-only" — Requires approval to edit files and access the internet. Actions go through your permission setting.',
  );
  const bare = whoDecidesText({ mode: "Auto", description: "Edits files without asking", agentDecides: true });
  assert.match(bare, /^⚠ Agent mode "Auto" — Edits files without asking\. The agent approves/);
  assert.doesNotMatch(dotted + bare, /\.\./);
});
