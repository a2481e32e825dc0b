// A stopped thread host leaves at once (#35), real processes. A run that ends while stop() waits for its runs must
// not arm a new idle timer: it did, and the stopped host's process stayed alive for its whole idle time (10 minutes
// by default; a fresh-clone CI's unit stage hung on it). The first test pins the race (the run ends 5 ms after the
// abort, inside stop()'s 50 ms look, no client connected; failed with the stopping guard of #armIdle reverted); the
// second is the built CLI's `host serve` stopped by SIGTERM with a turn running and its `run --detach` client gone.
// Both failed again with the guard reverted (stop 45): the first printed "closed" and its process stayed.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { detached, hostPid, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

/** Beyond the stop's own grace (10 s), far below the idle time a re-armed timer would hold the process. */
const GUARD_MS = 25_000;

test("a run that ends during stop()'s wait: once the host closed, its process exits by itself", () =>
  withTmpDir("acp-host-stop-", async (home) => {
    const child = spawn(process.execPath, [join(repoRoot(), "dist-test/fixtures/host/stopped-host.main.js"), home], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    let exited = false;
    child.on("exit", () => (exited = true));
    try {
      await waitFor(() => out.includes("closed") || exited, "the host closed", GUARD_MS);
      assert.match(out, /closed/);
      await waitFor(() => exited, `the process of the closed host (it printed ${JSON.stringify(out)})`, GUARD_MS);
    } finally {
      child.kill("SIGKILL");
    }
  }));

test("host serve stopped by SIGTERM with a turn running and no client: its process exits at once", () =>
  withTmpDir("acp-host-stop-", async (home) => {
    const env = { ACP_THREADS_HOST_IDLE_SECONDS: "600" };
    let pid: number | undefined;
    try {
      await detached(home, ["--agent", FAKE_AGENT, "sleep 60000"], env);
      pid = hostPid(home);
      assert.ok(pid);
      process.kill(pid, "SIGTERM");
      await waitFor(() => !pidAlive(pid!), `the stopped host ${pid} gone`, GUARD_MS);
    } finally {
      // the pid read before: a host that closed (its lock let go) but whose process stayed is no longer named there
      pid ??= hostPid(home);
      if (pid && pidAlive(pid)) process.kill(pid, "SIGKILL");
      await stopHost(home);
    }
  }));
