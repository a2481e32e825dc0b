/** The policy in front of client-side effects (fs write/read, terminal/create), not only permission prompts. */
import assert from "node:assert/strict";
import { methods } from "@agentclientprotocol/sdk";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { PermissionPolicy } from "../../../../src/core/model/agent";
import type { PermissionPrompt } from "../../../../src/core/ports";
import { collect, outputText, startFake, type TurnContext } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-gate-", fn);

async function turn(
  cwd: string,
  policy: PermissionPolicy,
  answers: string[],
  body: (t: TurnContext) => Promise<string>,
) {
  const asked: PermissionPrompt[] = [];
  const rt = startFake(
    {
      prompt: async (t) => {
        await t.say(await body(t).catch((e: { message?: string; code?: number }) => `error ${e.code}: ${e.message}`));
        return "end_turn";
      },
    },
    { cwd, permissionPolicy: policy, asker: { ask: async (p) => (asked.push(p), answers[asked.length - 1] ?? null) } },
  );
  try {
    const { sessionId } = await rt.ensureSession();
    return { out: outputText(await collect(rt.runTurn(sessionId, "go"))), asked };
  } finally {
    await rt.close();
  }
}

test("deny-all refuses a write with a clear JSON-RPC error, without asking anyone", () =>
  withTmp(async (ws) => {
    const target = join(ws, "keep.txt");
    await writeFile(target, "original");
    const { out, asked } = await turn(ws, "deny-all", ["allow"], async ({ client, sessionId }) => {
      await client.request(methods.client.fs.writeTextFile, { sessionId, path: target, content: "x" });
      return "wrote";
    });
    assert.match(out, /^error -32001: writing .*keep\.txt refused: the permission policy is deny-all/);
    assert.equal(asked.length, 0);
    assert.equal(await readFile(target, "utf8"), "original");
  }));

test("an agent that asks before it writes (gemini, opencode) is asked once", () =>
  withTmp(async (ws) => {
    const target = join(ws, "new.txt");
    const { out, asked } = await turn(ws, "ask", ["proceed_once"], async ({ client, sessionId }) => {
      const res = await client.request(methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId: "w", title: "WriteFile", kind: "edit", locations: [{ path: target }] },
        options: [
          { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
          { optionId: "cancel", name: "Reject", kind: "reject_once" },
        ],
      });
      assert.equal(res.outcome.outcome, "selected");
      await client.request(methods.client.fs.writeTextFile, { sessionId, path: target, content: "hi" });
      return "wrote";
    });
    assert.equal(out, "wrote");
    assert.equal(asked.length, 1);
    assert.equal(await readFile(target, "utf8"), "hi");
  }));

test("under ask, a read nobody approved is asked for; a refusal is an error and an approval reads", () =>
  withTmp(async (ws) => {
    const file = join(ws, "secret.txt");
    await writeFile(file, "s3cret");
    const read = async ({ client, sessionId }: TurnContext) =>
      (await client.request(methods.client.fs.readTextFile, { sessionId, path: file })).content;
    const refused = await turn(ws, "ask", ["reject"], read);
    assert.match(refused.out, /^error -32001: reading .*secret\.txt refused/);
    assert.equal(refused.asked[0].request.toolCall.kind, "read");
    const allowed = await turn(ws, "ask", ["allow"], read);
    assert.equal(allowed.out, "s3cret");
    // approve-reads lets reads pass without a question
    assert.deepEqual((await turn(ws, "approve-reads", [], read)).asked, []);
  }));
