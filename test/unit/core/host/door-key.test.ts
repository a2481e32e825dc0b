/**
 * The host's key (door-key.ts): a process that reaches the socket but cannot read the data home (a sandboxed agent
 * on macOS, where Seatbelt leaves unix sockets open) is answered nothing but a refusal, and let go; and what answers
 * at the door without proving it holds the key (a process that took the door's name first) is told nothing.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdirSync, statSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import { doorProof, readDoorKey, writeDoorKey } from "../../../../src/core/store/door-key";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
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
const door = { t: "door", id: 1, nonce: "ab".repeat(16) };

test("hostile: a client without the host's key gets no status, no run, and is let go", () =>
  withCliHost("door-key-", async ({ dir, home, host }) => {
    const ws = join(dir, "ws");
    for (const first of [
      { t: "status", id: 1 },
      { ...hello, serves: { fs: false, roots: [ws] } },
      { ...hello, key: await readDoorKey(hostPlace(home).key), serves: { fs: false, roots: [ws] } },
      { ...hello, proof: "0".repeat(64), serves: { fs: false, roots: [ws] } },
    ]) {
      const { got, closed } = await raw(home, [first, { t: "run", id: 2, run: fakeRun(ws) }, { t: "status", id: 3 }]);
      assert.deepEqual(
        got.map((m) => [m.t, "code" in m ? m.code : undefined]),
        [["error", "no_key"]],
        JSON.stringify(got),
      );
      assert.ok(closed, "the host closed the connection");
    }
    // the door answered, then a hello whose proof is not for this connection's nonces
    for (const proof of ["0".repeat(64), undefined]) {
      const { got, closed } = await raw(home, [door, { ...hello, id: 2, proof }, { t: "status", id: 3 }]);
      assert.deepEqual(
        got.map((m) => [m.t, "code" in m ? m.code : undefined]),
        [
          ["door", undefined],
          ["error", "no_key"],
        ],
        JSON.stringify(got),
      );
      assert.ok(closed, "the host closed the connection");
    }
    assert.equal(host.status().sessions.length, 0, "nothing ran");
  }));

test("the host proves it holds the key without showing it, on each connection anew", () =>
  withCliHost("door-key-", async ({ home }) => {
    const key = (await readDoorKey(hostPlace(home).key)) ?? "";
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const { got } = await raw(home, [door], 1);
      const a = got[0] as HostMessage & { nonce: string; proof: string };
      assert.equal(a.t, "door");
      assert.equal(a.proof, doorProof(key, "host", door.nonce, a.nonce));
      assert.ok(!JSON.stringify(a).includes(key), "the key itself is not sent");
      answers.push(a.nonce);
    }
    assert.notEqual(answers[0], answers[1], "a new nonce per connection: a proof seen once is no use on another");
  }));

test("hostile: what took the door's name first (another user's pipe on Windows) is told nothing", () =>
  withTmpDir("door-squat-", async (dir) => {
    const home = join(dir, "home");
    const place = hostPlace(home);
    mkdirSync(place.dir, { recursive: true, mode: 0o700 });
    const key = writeDoorKey(place.key); // the key a host of this data home wrote
    // an impostor: it answers every request the way the host would, and keeps what it hears
    let heard = "";
    const impostor = createServer((sock) =>
      sock.on("data", (d) => {
        heard += String(d);
        for (const line of String(d).split("\n").filter(Boolean)) {
          const req = JSON.parse(line) as { t: string; id: number };
          const reply =
            req.t === "door"
              ? { t: "door", id: req.id, nonce: "cd".repeat(16), proof: "0".repeat(64) }
              : { t: "hello", id: req.id, protocol: HOST_PROTOCOL, version: place.version, pid: 1 };
          sock.write(`${JSON.stringify(reply)}\n`);
        }
      }),
    );
    impostor.listen(place.socket);
    await once(impostor, "listening");
    try {
      await assert.rejects(
        connectHost({ home, client: "acp-threads run --detach" }),
        /did not prove it holds the host's key.*nothing was sent to it/s,
      );
      assert.ok(!heard.includes(key), "the key was not sent to the impostor");
      assert.ok(!heard.includes('"hello"'), `nothing but the door request was sent: ${heard}`);
    } finally {
      impostor.close();
    }
  }));

test("the key is the user's alone, and a client that reads it is served", () =>
  withCliHost("door-key-", async ({ home }) => {
    const place = hostPlace(home);
    const key = await readDoorKey(place.key);
    assert.match(key ?? "", /^[0-9a-f]{64}$/);
    if (process.platform !== "win32") assert.equal(statSync(place.key).mode & 0o777, 0o600);
    const conn = await connectHost({ home, client: "acp-threads host status", watching: true });
    assert.ok(conn);
    assert.equal((await conn.request({ t: "status" })).t, "status");
    conn.close();
  }));
