// An agent's terminal login where nobody would see the terminal (the thread host with no editor showing its
// terminals, #35 item 7): it fails at once with the terminal host's reason instead of waiting in a pty nobody types
// into, and a later attempt, once someone sees the terminals, logs in there.
import assert from "node:assert/strict";
import { RequestError } from "@agentclientprotocol/sdk";
import { test } from "node:test";
import type { TerminalView } from "../../../../src/core/ports";
import { startFake } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("a terminal login nobody would see fails at once; once someone sees the terminals it runs there", () =>
  withTmpDir("acp-login-unseen-", async (cwd) => {
    let attempts = 0;
    let seen = false;
    const views: TerminalView[] = [];
    const rt = startFake(
      {
        authMethods: [{ type: "terminal", id: "login", name: "Log in", args: ["-c", "exit 0"] } as never],
        onNewSession: () => {
          if (attempts++ < 2) throw RequestError.authRequired();
        },
        prompt: () => "end_turn",
      },
      {
        cwd,
        agent: { id: "fake", displayName: "Fake", command: "/bin/sh", args: [] },
        terminalHost: {
          onTerminalCreated: (v) => views.push(v),
          loginUnseen: () => Promise.resolve(seen ? undefined : "nobody watches: log in from a window"),
        },
      },
    );
    try {
      await assert.rejects(rt.ensureSession(), /nobody watches: log in from a window/);
      assert.equal(views.length, 0, "no login terminal was started");
      seen = true;
      const { sessionId } = await rt.ensureSession();
      assert.equal(sessionId, "s1");
      assert.equal(attempts, 3);
      assert.deepEqual(
        views.map((v) => [v.sessionId, v.commandLine]),
        [["authentication", "/bin/sh -c exit 0"]],
        "the login ran in the terminal the host shows",
      );
    } finally {
      await rt.close();
    }
  }));
