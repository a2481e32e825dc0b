import assert from "node:assert/strict";
import { methods, type CreateTerminalRequest } from "@agentclientprotocol/sdk";
import { test } from "node:test";
import { OutputBuffer } from "../../../../src/core/acp/output-buffer";
import type { TerminalView } from "../../../../src/core/ports";
import { collect, outputText, startFake, type TurnContext } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { spawnerTerminalsFromEnv } from "../../../fixtures/spawner/terminals";

spawnerTerminalsFromEnv();

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-term-", fn);

async function turn(
  cwd: string,
  body: (t: TurnContext) => Promise<string>,
  opts: { noPty?: boolean; views?: TerminalView[] } = {},
) {
  const rt = startFake(
    { prompt: async (t) => (await t.say(await body(t).catch((e: Error) => `error: ${e.message}`)), "end_turn") },
    {
      cwd,
      // terminal mechanics: the policy gate in front of terminal/create has its own tests (effect-gate.test.ts)
      permissionPolicy: "approve-all",
      terminalHost: opts.views ? { onTerminalCreated: (v) => opts.views!.push(v) } : undefined,
    },
    { noPty: opts.noPty ?? true },
  );
  try {
    const { sessionId } = await rt.ensureSession();
    return outputText(await collect(rt.runTurn(sessionId, "go")));
  } finally {
    await rt.close();
  }
}

/** terminal/create → wait_for_exit → terminal/output, as an agent would. */
async function runToExit({ client, sessionId }: TurnContext, create: Omit<CreateTerminalRequest, "sessionId">) {
  const { terminalId } = await client.request(methods.client.terminal.create, { sessionId, ...create });
  const exit = await client.request(methods.client.terminal.waitForExit, { sessionId, terminalId });
  const res = await client.request(methods.client.terminal.output, { sessionId, terminalId });
  return { exit, res };
}

test("the output buffer drops the oldest bytes and never starts inside a multi-byte character", () => {
  const buf = new OutputBuffer(5);
  buf.append("ab");
  assert.equal(buf.truncated, false);
  buf.append("é€x"); // é = 2 bytes, € = 3 bytes: "abé€x" is 8 bytes
  // The last 5 bytes start in the middle of é's neighbour: the cut moves forward to "€x".
  assert.equal(buf.text(), "€x");
  assert.equal(buf.truncated, true);
  const emoji = new OutputBuffer(6);
  emoji.append("😀😀"); // 8 bytes; the last 6 start inside the first emoji
  assert.equal(emoji.text(), "😀");
});

test("the output buffer holds back an incomplete character at the end until it completes", () => {
  const buf = new OutputBuffer(100);
  const euro = Buffer.from("€");
  buf.append(Buffer.concat([Buffer.from("a"), euro.subarray(0, 2)]));
  assert.equal(buf.text(), "a");
  buf.append(euro.subarray(2));
  assert.equal(buf.text(), "a€");
});

test("a command without args runs as a shell line in the session cwd", () =>
  withTmp(async (ws) => {
    const views: TerminalView[] = [];
    const out = await turn(
      ws,
      async (t) => {
        const { exit, res } = await runToExit(t, { command: "echo $((1+2)) && pwd" });
        return `${exit.exitCode}|${res.output}|${res.exitStatus?.exitCode}`;
      },
      { views },
    );
    assert.equal(out, `0|3\n${ws}\n|0`);
    assert.equal(views.length, 1);
    assert.equal(views[0].cwd, ws);
  }));

test("args, env and outputByteLimit are honoured and output stays readable after release", () =>
  withTmp(async (ws) => {
    const out = await turn(ws, async ({ client, sessionId }) => {
      const { terminalId } = await client.request(methods.client.terminal.create, {
        sessionId,
        command: "/bin/sh",
        args: ["-c", 'printf "%s-0123456789" "$GREETING"'],
        env: [{ name: "GREETING", value: "héllo" }],
        outputByteLimit: 8,
      });
      await client.request(methods.client.terminal.waitForExit, { sessionId, terminalId });
      await client.request(methods.client.terminal.release, { sessionId, terminalId });
      const res = await client.request(methods.client.terminal.output, { sessionId, terminalId });
      return `${res.output}|${res.truncated}`;
    });
    assert.equal(out, "23456789|true");
  }));

test("kill stops a running command and wait_for_exit reports the signal", () =>
  withTmp(async (ws) => {
    const out = await turn(ws, async ({ client, sessionId }) => {
      const { terminalId } = await client.request(methods.client.terminal.create, {
        sessionId,
        command: "sleep",
        args: ["30"],
      });
      await client.request(methods.client.terminal.kill, { sessionId, terminalId });
      const exit = await client.request(methods.client.terminal.waitForExit, { sessionId, terminalId });
      return `${exit.exitCode}|${exit.signal}`;
    });
    assert.equal(out, "null|SIGTERM");
  }));

test("the pty backend runs a shell line too", () =>
  withTmp(async (ws) => {
    const out = await turn(
      ws,
      async (t) => {
        const { exit, res } = await runToExit(t, { command: "echo pty-ok" });
        return `${exit.exitCode}|${res.output.trim()}`;
      },
      { noPty: false },
    );
    assert.equal(out, "0|pty-ok");
  }));

test("terminal/create refuses a working directory outside the workspace", () =>
  withTmp(async (ws) => {
    const out = await turn(ws, async (t) => {
      await runToExit(t, { command: "pwd", cwd: "/usr" });
      return "created";
    });
    assert.match(out, /^error: .*outside the workspace/);
  }));
