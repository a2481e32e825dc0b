// Prompts with context, through the one block builder (core/prompt), to the real agents: a file mention and a
// selection reach codex-acp's and claude-agent-acp's model requests, gemini gets an embedded resource, links go
// as links when embedding is off, and an image reaches codex-acp's model as an image part. The scripted model's
// "echo the context" answer reports what its request carried (test/fixtures/model-server/context-echo.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PromptPart } from "../../src/core/model/context";
import { buildPrompt, type PromptCaps } from "../../src/core/prompt/blocks";
import { imageItem } from "../../src/core/prompt/images";
import { fileRef, selectionRef } from "../../src/core/prompt/refs";
import type { AgentId } from "../fixtures/agent-env/index";
import {
  AGENT_TIMEOUT_MS,
  collectTurn,
  jsonLines,
  runAgentTurn,
  runtimeFor,
  setUp,
  skipUnlessInstalled,
} from "./harness";

const disk = { readText: async (p: string) => (await import("node:fs")).readFileSync(p, "utf8") };
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/** Runs one "echo the context" turn with these parts and returns the agent's answer. */
async function echoContext(
  id: AgentId,
  parts: (ws: string) => PromptPart[],
  caps?: (advertised: PromptCaps | undefined) => PromptCaps,
): Promise<{ answer: string; ws: string }> {
  const t = await setUp(id);
  const rt = runtimeFor(t, "approve-all");
  try {
    writeFileSync(join(t.workspace, "notes.md"), "MENTIONED-FILE-LINE alpha\nsecond line\nSELECTED-LINE beta\n");
    const { sessionId } = await rt.ensureSession();
    const advertised = rt.getCapabilities()?.agentCapabilities.promptCapabilities ?? undefined;
    const built = await buildPrompt(parts(t.workspace), caps ? caps(advertised) : advertised, disk, { agentName: id });
    const events = await collectTurn(rt, sessionId, built.blocks);
    const end = events[events.length - 1];
    assert.ok(end?.type === "done", `turn ended with ${JSON.stringify(end)}`);
    const answer = events.map((e) => (e.type === "text" && e.stream === "output" ? e.text : "")).join("");
    return { answer, ws: t.workspace };
  } finally {
    await rt.close();
    await t.cleanup();
  }
}

const mentionAndSelection = (ws: string): PromptPart[] => [
  { type: "text", text: "echo the context of " },
  { type: "context", item: fileRef(join(ws, "notes.md")) },
  { type: "text", text: " and " },
  {
    type: "context",
    item: { ...selectionRef(join(ws, "notes.md"), { start: 3, end: 3 }), content: "SELECTED-LINE beta\n" },
  },
];

for (const id of ["codex-acp", "claude-agent-acp"] as const) {
  test(
    `${id} receives a file mention and a selection: both texts reach the model request`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const { answer, ws } = await echoContext(id, mentionAndSelection);
      const uri = `file://${join(ws, "notes.md")}`;
      assert.match(answer, new RegExp(`embedded notes\\.md ${uri}: "MENTIONED-FILE-LINE alpha"`), answer);
      assert.match(answer, new RegExp(`embedded notes\\.md#L3:3 ${uri}#L3:3: "SELECTED-LINE beta"`), answer);
    },
  );
}

test("gemini receives an embedded resource", { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled }, async () => {
  const { answer, ws } = await echoContext("gemini", (w) => [mentionAndSelection(w)[0]!, mentionAndSelection(w)[3]!]);
  assert.match(
    answer,
    new RegExp(`embedded notes\\.md#L3:3 file://${join(ws, "notes.md")}#L3:3: "SELECTED-LINE beta"`),
    answer,
  );
});

test(
  "without embeddedContext a mention goes as a resource_link and the agent sees the link",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const { answer, ws } = await echoContext("codex-acp", mentionAndSelection, (caps) => ({
      ...caps,
      embeddedContext: false,
    }));
    const uri = `file://${join(ws, "notes.md")}`;
    assert.match(answer, new RegExp(`link notes\\.md ${uri}(?!#)`), answer);
    assert.match(answer, new RegExp(`link notes\\.md:3 ${uri}#L3:3`), answer);
    assert.doesNotMatch(answer, /MENTIONED-FILE-LINE/, "a link carries no text");
  },
);

// pi-acp advertises no embeddedContext: its mentions go as links without asking the test to turn it off
test(
  "pi-acp receives a file mention and a selection as resource links",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const { answer, ws } = await echoContext("pi-acp", mentionAndSelection);
    const uri = `file://${join(ws, "notes.md")}`;
    // pi-acp passes only the uri ("[Context] <uri>"), so the model sees no display name but the file's
    assert.match(answer, new RegExp(`link notes\\.md ${uri}(?!#)`), answer);
    assert.match(answer, new RegExp(`link notes\\.md#L3:3 ${uri}#L3:3`), answer);
  },
);

for (const id of ["codex-acp", "claude-agent-acp", "pi-acp"] as const) {
  test(
    `an image reaches ${id}'s model request as an image part`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const { answer } = await echoContext(id, () => [
        { type: "text", text: "echo the context of this picture" },
        { type: "context", item: imageItem(PNG, "dot.png") },
      ]);
      assert.match(answer, /images: 1/, answer);
    },
  );
}

test(
  "acp-threads run --file PATH:L1-L2 sends the same blocks through the CLI (codex-acp)",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      writeFileSync(join(t.workspace, "notes.md"), "first\nsecond\nTHIRD-LINE gamma\n");
      const r = await runAgentTurn(t, "approve-all", "echo the context of", [
        "--file",
        "notes.md:3",
        "--timeout",
        "100",
      ]);
      assert.equal(r.code, 0, r.stderr.slice(-1500));
      const answer = jsonLines(r.stdout)
        .filter((l) => l.type === "text" && l.stream === "output")
        .map((l) => l.text)
        .join("");
      const uri = `file://${join(t.workspace, "notes.md")}#L3:3`;
      assert.match(answer, new RegExp(`embedded notes\\.md#L3:3 ${uri}: "THIRD-LINE gamma"`), answer);
    } finally {
      await t.cleanup();
    }
  },
);
