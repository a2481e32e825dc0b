/**
 * The host's key (door-key.ts): a process that reaches the socket but cannot read the data home (a sandboxed agent
 * on macOS, where Seatbelt leaves unix sockets open) is answered nothing but a refusal, and let go.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import { readDoorKey } from "../../../../src/core/store/door-key";
import { HOST_PROTOCOL, type HostMessage } from "../../../../src/core/host/protocol";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";

/**
 * A raw connection to the host's socket sending `lines`: what it got until the host closed it (`closed`), or until
 * `replies` messages came when given.
 */
async function raw(home: string, lines: object[], replies?: number): Promise<{ got: HostMessage[]; closed: boolean }> {
  const sock: Socket = connect(hostPlace(home).socket);
  await once(sock, "connect");
  const got: HostMessage[] = [];
  let buf = "";
  let enough = () => {};
  const answered = new Promise<void>((r) => (enough = r));
  sock.on("data", (d) => {
    buf += String(d);
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      got.push(JSON.parse(buf.slice(0, i)) as HostMessage);
      buf = buf.slice(i + 1);
    }
    if (replies !== undefined && got.length >= replies) enough();
  });
  const closed = once(sock, "close").then(() => true);
  for (const line of lines) sock.write(`${JSON.stringify(line)}\n`);
  // a host that answers the requests instead of closing: 10 s is far past its answers, never a pass
  const result = await Promise.race([
    closed,
    answered.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
  ]);
  sock.destroy();
  return { got, closed: result };
}

const hello = { t: "hello", id: 1, protocol: HOST_PROTOCOL, client: "a sandboxed agent" };

test("hostile: a client without the host's key gets no status, no run, and is let go", () =>
  withCliHost("door-key-", async ({ dir, home, host }) => {
    const ws = join(dir, "ws");
    for (const first of [
      { t: "status", id: 1 },
      { ...hello, serves: { fs: false, roots: [ws] } },
      { ...hello, key: "0".repeat(64), serves: { fs: false, roots: [ws] } },
    ]) {
      const { got, closed } = await raw(home, [first, { t: "run", id: 2, run: fakeRun(ws) }, { t: "status", id: 3 }]);
      assert.deepEqual(
        got.map((m) => [m.t, "code" in m ? m.code : undefined]),
        [["error", "no_key"]],
        JSON.stringify(got),
      );
      assert.ok(closed, "the host closed the connection");
    }
    assert.equal(host.status().sessions.length, 0, "nothing ran");
  }));

test("the key is the user's alone, and a client that reads it is served", () =>
  withCliHost("door-key-", async ({ home }) => {
    const place = hostPlace(home);
    const key = await readDoorKey(place.key);
    assert.match(key ?? "", /^[0-9a-f]{64}$/);
    if (process.platform !== "win32") assert.equal(statSync(place.key).mode & 0o777, 0o600);
    const { got } = await raw(
      home,
      [
        { ...hello, key },
        { t: "status", id: 2 },
      ],
      2,
    );
    assert.deepEqual(
      got.map((m) => m.t),
      ["hello", "status"],
    );
    const conn = await connectHost({ home, client: "acp-threads host status", watching: true });
    assert.ok(conn);
    assert.equal((await conn.request({ t: "status" })).t, "status");
    conn.close();
  }));
