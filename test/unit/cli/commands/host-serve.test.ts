// `acp-threads host serve --idle-minutes N` (#35): the idle time a starting client passes (the editor its
// `acpThreads.host.idleMinutes`) wins over the tests' environment variable; a client's `start.args` reach it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { CLI, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { hostPid, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

test("host serve --idle-minutes: the host leaves that long after its last client, whatever the environment says", () =>
  withTmpDir("acp-host-serve-", async (home) => {
    const started = Date.now();
    // an hour in the environment; 0.02 minutes (1.2 s) on the command line
    const r = await runCli(["host", "serve", "--idle-minutes", "0.02"], {
      home,
      env: { ACP_THREADS_HOST_IDLE_SECONDS: "3600" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /serves /);
    assert.ok(Date.now() - started < 30_000, "it left long before the environment's hour");
  }));

test("host serve --idle-minutes rejects a value that is not above 0", () =>
  withTmpDir("acp-host-serve-", async (home) => {
    const r = await runCli(["host", "serve", "--idle-minutes", "0"], { home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--idle-minutes/);
  }));

test("a client that starts the host passes its arguments to host serve", () =>
  withTmpDir("acp-host-serve-", async (home) => {
    try {
      const conn = await connectHost({
        home,
        client: "test",
        start: {
          script: CLI,
          env: { ...process.env, ACP_THREADS_HOME: home, ACP_THREADS_HOST_IDLE_SECONDS: "3600" },
          args: ["--idle-minutes", "0.02"],
        },
      });
      assert.ok(conn);
      const pid = hostPid(home)!;
      assert.ok(pid);
      conn.close();
      await waitFor(() => !pidAlive(pid), "the host left 1.2 s after its only client", 20_000);
      assert.match(readFileSync(hostPlace(home).log, "utf8"), /serves /);
    } finally {
      await stopHost(home);
    }
  }));
