// The thread host's door (#35): its folders are made 0700 and checked (a planted link, a file, a folder open to
// others is refused, never used), the socket is 0600, a dead host's socket is replaced, a live one is not taken,
// anything else at the socket's path is refused; a message over the size cap closes the connection.
import assert from "node:assert/strict";
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { hostPlace, ensurePrivateDir, preparePlace } from "../../../../src/core/host/door";
import { ThreadHost } from "../../../../src/core/host/server";
import { nullLogger } from "../../../../src/core/log";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const host = (home: string) =>
  new ThreadHost({
    home,
    place: hostPlace(home),
    runner: () => Promise.resolve({ exitCode: 0 }),
    logger: nullLogger,
    idleMs: 60_000,
  });

test("the host's folders are made 0700 and its socket 0600", () =>
  withTmpDir("acp-door-", async (home) => {
    const h = host(home);
    assert.equal(await h.listen(), true);
    try {
      const place = hostPlace(home);
      assert.equal(statSync(join(home, "host")).mode & 0o777, 0o700);
      assert.equal(statSync(place.dir).mode & 0o777, 0o700);
      assert.equal(statSync(place.socket).mode & 0o777, 0o600);
    } finally {
      await h.stop();
    }
  }));

test("hostile: a planted link, a file, a folder open to others or of another user is refused, never used", () =>
  withTmpDir("acp-door-", async (home) => {
    const elsewhere = join(home, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    const cases: [string, (at: string) => void][] = [
      ["a symbolic link", (at) => symlinkSync(elsewhere, at)],
      ["not a directory", (at) => writeFileSync(at, "")],
      ["open to others", (at) => (mkdirSync(at), chmodSync(at, 0o755))],
    ];
    // as root (CI), a folder of another user can be made
    if (process.getuid?.() === 0)
      cases.push(["owned by uid 65534", (at) => (mkdirSync(at, 0o700), chownSync(at, 65534, 65534))]);
    for (const [what, plant] of cases) {
      const caseHome = join(home, what.replace(/ /g, "-"));
      mkdirSync(caseHome);
      plant(join(caseHome, "host"));
      assert.throws(
        () => ensurePrivateDir(hostPlace(caseHome).dir, caseHome),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, "unsafe_path");
          assert.match(err.message, new RegExp(what));
          return true;
        },
      );
      await assert.rejects(host(caseHome).listen(), /thread host's folder/);
      assert.deepEqual(readdirSync(elsewhere), [], "nothing was made through the link");
    }
  }));

test("hostile: a client never connects through a planted folder: a link where the host's folder goes is refused", () =>
  withTmpDir("acp-door-", async (home) => {
    const evil = join(home, "evil");
    mkdirSync(join(evil, "x"), { recursive: true, mode: 0o700 });
    symlinkSync(evil, join(home, "host"));
    await assert.rejects(connectHost({ home, client: "test" }), /thread host's folder .* is a symbolic link/);
  }));

test("hostile: a folder of the right mode loosened later is refused on the next connect", () =>
  withTmpDir("acp-door-", async (home) => {
    const place = hostPlace(home);
    preparePlace(home, place);
    chmodSync(place.dir, 0o777);
    assert.throws(() => preparePlace(home, place), /open to others \(mode 777\)/);
  }));

test("a dead host's socket is replaced; a live host keeps its socket; a file at the socket's path is refused", () =>
  withTmpDir("acp-door-", async (home) => {
    const place = hostPlace(home);
    preparePlace(home, place);
    // a socket nobody listens on any more (a crashed host leaves one like this)
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(place.socket, r));
    // close the listening handle without removing the file: what SIGKILL leaves
    (dead as unknown as { _handle: { close(): void } })._handle.close();
    const first = host(home);
    assert.equal(await first.listen(), true, "the stale socket was replaced");
    const second = host(home);
    assert.equal(await second.listen(), false, "a live host is not displaced");
    await first.stop();
    writeFileSync(place.socket, "not a socket");
    await assert.rejects(host(home).listen(), /not a socket of yours/);
  }));

test("hostile: a line over the size cap closes the connection, the host goes on", () =>
  withTmpDir("acp-door-", async (home) => {
    const h = host(home);
    await h.listen();
    try {
      const sock = connect(hostPlace(home).socket);
      const closed = new Promise<void>((r) => sock.on("close", () => r()));
      sock.on("error", () => {});
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      for (let i = 0; i < 20 && !sock.destroyed; i++) sock.write(chunk);
      // a hang guard, not a timed assertion: without the cap the host buffers on and never closes
      const guard = new Promise<string>((r) => setTimeout(() => r("still open"), 20_000).unref());
      assert.equal(await Promise.race([closed.then(() => "closed"), guard]), "closed");
      await new Promise((r) => setImmediate(r));
      assert.equal(h.status().clients, 0);
      const again = connect(hostPlace(home).socket);
      await new Promise<void>((r, j) => again.once("connect", r).once("error", j));
      again.destroy();
    } finally {
      await h.stop();
    }
  }));
