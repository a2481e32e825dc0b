// A window learns of a thread host it did not start at once (#35): the watch of the host's socket folder tells of
// a host that starts after the watch began, in a data home where no host folder existed yet (the folders appear
// on the way), and of a host that starts again after the first left. Real hosts, real folders; the watch's own
// retry is set far beyond the test, so only the folder events can tell it.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { hostPlace } from "../../../../src/core/host/door";
import { ThreadHost } from "../../../../src/core/host/server";
import { watchSocket } from "../../../../src/core/host/socket-watch";
import { nullLogger } from "../../../../src/core/log";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { waitFor } from "../../../fixtures/spawner/wait";

/** The window's old poll: a host must be noticed well before it would look again. */
const OLD_POLL_MS = 2_000;

async function startHost(home: string): Promise<ThreadHost> {
  const host = new ThreadHost({
    home,
    place: hostPlace(home),
    runner: () => Promise.resolve({ exitCode: 0 }),
    logger: nullLogger,
  });
  assert.ok(await host.listen());
  return host;
}

/** A data home in `dir` watched for its host's socket from the moment `fn` runs; the hosts it starts are stopped. */
function watchedHome(
  dir: string,
  fn: (w: { home: string; told: () => number; start: () => Promise<ThreadHost> }) => Promise<void>,
): Promise<void> {
  const home = join(dir, "home");
  mkdirSync(home);
  let told = 0;
  const w = watchSocket(hostPlace(home).socket, home, () => told++, 60_000);
  const hosts: ThreadHost[] = [];
  const start = async () => {
    const host = await startHost(home);
    hosts.push(host);
    return host;
  };
  return fn({ home, told: () => told, start }).finally(async () => {
    w.close();
    for (const h of hosts) await h.stop();
  });
}

test("a host started after the watch began, in a data home with no host folder yet, is told at once", () =>
  withTmpDir("acp-host-watch-", async (dir) => {
    const home = join(dir, "home");
    mkdirSync(home);
    let told = 0;
    const w = watchSocket(hostPlace(home).socket, home, () => told++, 60_000);
    let host: ThreadHost | undefined;
    try {
      await new Promise((r) => setTimeout(r, 100)); // the watch is on the data home
      host = await startHost(home);
      const started = Date.now();
      await waitFor(() => told > 0, "the new host told", OLD_POLL_MS / 2);
      process.stdout.write(`# told ${Date.now() - started} ms after the host listened\n`);
      await host.stop();
      await waitFor(() => told > 1, "the host's socket gone told", OLD_POLL_MS / 2);
      const before = told;
      host = await startHost(home);
      await waitFor(() => told > before, "the host started again told", OLD_POLL_MS / 2);
    } finally {
      w.close();
      await host?.stop();
    }
  }));

test("a data home that does not exist yet: the watch waits above it and tells of the host once it starts", () =>
  withTmpDir("acp-host-watch-", async (dir) => {
    const home = join(dir, "not-yet", "home");
    let told = 0;
    const w = watchSocket(hostPlace(home).socket, dir, () => told++, 60_000);
    let host: ThreadHost | undefined;
    try {
      await new Promise((r) => setTimeout(r, 100));
      host = await startHost(home);
      await waitFor(() => told > 0, "the new host told", OLD_POLL_MS / 2);
    } finally {
      w.close();
      await host?.stop();
    }
  }));

// host/ and host/<version>/ made in one go before the watch reached them. The race the watch now closes (the
// version folder made between the watch's look down and the start of its watch of host/, so never told there) is
// too narrow to force here: this case passes with and without the fix; the host suite's hosted tests showed it.
test("host folders made in one go before the watch reached them: the socket made later is still told", () =>
  withTmpDir("acp-host-watch-", (dir) =>
    watchedHome(dir, async ({ home, told, start }) => {
      await new Promise((r) => setTimeout(r, 100)); // the watch is on the data home
      mkdirSync(dirname(hostPlace(home).socket), { recursive: true, mode: 0o700 }); // host/ and host/<version>/ at once
      await new Promise((r) => setTimeout(r, 300)); // the watch has gone down
      await start();
      await waitFor(() => told() > 0, "the new host told", OLD_POLL_MS / 2);
    }),
  ));
