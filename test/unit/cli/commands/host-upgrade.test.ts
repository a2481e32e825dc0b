// An extension update (#35 item 1), real processes: a host of version A runs a session when a client of version B
// starts a run; B starts its own host (a folder per version) and says the A host still runs a session; the A host
// finishes it and leaves when idle while B's goes on. The version is faked with ACP_THREADS_TEST_HOST_VERSION.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { cli, detached, endSleep, hostPid, steering, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

const OLD = "0.0.1-old";
const old = { ACP_THREADS_TEST_HOST_VERSION: OLD };
const ended = (home: string, id: string) => new ThreadStore(home).read(id).records.some((r) => r.kind === "turn_end");

test("a client of a new version starts its own host; the old host finishes its session and leaves", () =>
  withTmpDir("acp-host-up-", async (home) => {
    try {
      // the old host's turn runs until it is steered below (a fixed-length one could end, under load, before
      // the status checks that need it running)
      const first = await detached(home, ["--agent", FAKE_AGENT, "sleep 600000"], { ...old, ...steering });
      const oldPid = hostPid(home, OLD)!;
      assert.ok(oldPid, "the old version's host runs");

      const r = await cli(home, ["run", "--detach", "--format", "json", "--agent", FAKE_AGENT, "sleep 30000"]);
      assert.equal(r.code, 0, r.stderr);
      const second = (JSON.parse(r.stdout) as { threadId: string }).threadId;
      const newPid = hostPid(home)!;
      assert.ok(newPid && newPid !== oldPid, "the new version has a host of its own");
      assert.match(r.stderr, new RegExp(`a thread host of version ${OLD} \\(pid ${oldPid}\\) still runs 1 session`));

      const st = await cli(home, ["host", "status", "--format", "json"]);
      assert.equal(st.code, 0, st.stderr);
      const status = JSON.parse(st.stdout) as {
        pid: number;
        sessions: { threadId: string }[];
        others: { version: string; pid: number; sessions: number }[];
      };
      assert.equal(status.pid, newPid);
      assert.deepEqual(
        status.sessions.map((s) => s.threadId),
        [second],
      );
      assert.deepEqual(status.others, [{ version: OLD, pid: oldPid, sessions: 1 }]);
      const text = await cli(home, ["host", "status"]);
      assert.match(text.stdout, new RegExp(`version ${OLD} \\(pid ${oldPid}\\) still runs 1 session`));

      // the old host's run goes to its end, then the old host leaves (idle); the new one, still running its
      // session (stopped with --force at the end), is not disturbed
      await endSleep(home, first, old);
      await waitFor(() => ended(home, first), "the old host's turn ended", 20_000);
      await waitFor(() => !pidAlive(oldPid), "the old host left once idle", 20_000);
      assert.ok(pidAlive(newPid), "the new host still runs");
      const after = JSON.parse((await cli(home, ["host", "status", "--format", "json"])).stdout) as {
        others: unknown[];
      };
      assert.deepEqual(after.others, []);
    } finally {
      await stopHost(home);
      const p = hostPid(home, OLD);
      if (p) {
        await cli(home, ["host", "stop", "--force"], old);
        await waitFor(() => !pidAlive(p), `old host ${p} gone`);
      }
    }
  }));
