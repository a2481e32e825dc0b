// The thread host's idle time (#35): a client that says hello as `watching` (an editor window looking on) neither
// keeps an idle host alive nor restarts its countdown by connecting again on every change it sees; a client that
// does not say so keeps it, as before.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import { ThreadHost } from "../../../../src/core/host/server";
import { nullLogger } from "../../../../src/core/log";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const IDLE_MS = 400;

async function serve(home: string): Promise<{ host: ThreadHost; left: () => boolean }> {
  const host = new ThreadHost({
    home,
    place: hostPlace(home),
    runner: () => Promise.resolve({ exitCode: 0 }),
    idleMs: IDLE_MS,
    logger: nullLogger,
  });
  assert.ok(await host.listen());
  let left = false;
  void host.closed.then(() => (left = true));
  return { host, left: () => left };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a watching client connected (and connecting again every 100 ms) does not keep an idle host", () =>
  withTmpDir("acp-host-idle-", async (home) => {
    const { host, left } = await serve(home);
    const conns: HostConnection[] = [];
    try {
      const started = Date.now();
      // a window that stays connected and looks again on every change it sees (a new connection each time)
      while (!left() && Date.now() - started < 8 * IDLE_MS) {
        const c = await connectHost({ home, client: "VS Code window", watching: true }).catch(() => undefined);
        if (c) conns.push(c);
        await sleep(100);
      }
      assert.ok(left(), `the host left while watched (waited ${Date.now() - started} ms)`);
      assert.ok(Date.now() - started < 4 * IDLE_MS, "about its idle time after it started");
    } finally {
      for (const c of conns) c.close();
      await host.stop();
    }
  }));

test("a client that is not only watching keeps the host until it goes", () =>
  withTmpDir("acp-host-idle-", async (home) => {
    const { host, left } = await serve(home);
    try {
      const c = await connectHost({ home, client: "acp-threads attach" });
      assert.ok(c);
      await sleep(3 * IDLE_MS);
      assert.equal(left(), false, "kept while attached");
      c.close();
      await host.closed;
    } finally {
      await host.stop();
    }
  }));
