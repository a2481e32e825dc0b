/**
 * The egress proxy (#34) on its own, spoken to in raw HTTP over its unix socket: CONNECT tunnels and plain
 * requests to a listed host, 403 and a note for the rest, 400 for what is not a proxy request, a capped head, a
 * client that goes away mid-tunnel, and a private folder that is gone after close.
 */
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { MAX_HEAD_BYTES, startEgressProxy, type EgressProxy } from "../../../../src/core/sandbox/egress-proxy";
import { parseAllowedHosts } from "../../../../src/core/sandbox/hosts";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { listenLocal } from "../../../fixtures/sandbox-world";

const skip = process.platform === "win32" ? "unix sockets" : false;

/** An echo server (what a TLS tunnel's far end sees) and a web server that names the path it got. */
async function upstreams<T>(fn: (echo: number, web: number, echoSockets: Set<Socket>) => Promise<T>): Promise<T> {
  const echoSockets = new Set<Socket>();
  const echo = createServer((c) => {
    echoSockets.add(c);
    c.on("close", () => echoSockets.delete(c));
    c.pipe(c);
  });
  const web = createHttpServer((req, res) =>
    res.end(
      `path=${req.url} host=${req.headers.host} conn=${req.headers.connection} proxy=${req.headers["proxy-authorization"] ?? "-"}`,
    ),
  );
  try {
    return await fn(await listenLocal(echo), await listenLocal(web), echoSockets);
  } finally {
    echo.close();
    web.closeAllConnections();
    web.close();
  }
}

async function withProxy(hosts: string[], fn: (proxy: EgressProxy, blocked: string[]) => Promise<void>) {
  await withTmpDir("egress-", async (dir) => {
    const parent = join(dir, "run");
    const proxy = await startEgressProxy({ rules: parseAllowedHosts(hosts), parent });
    const blocked: string[] = [];
    proxy.onBlocked((t) => blocked.push(t));
    try {
      await fn(proxy, blocked);
    } finally {
      await proxy.close();
    }
    assert.equal(existsSync(proxy.dir!), false, "closing removes the socket's folder");
    assert.equal(statSync(parent).mode & 0o777, 0o700);
  });
}

function open(proxy: EgressProxy): Socket {
  return connect((proxy.listen as { unix: string }).unix);
}

/** Sends `text` and reads until the proxy closes the connection. */
async function exchange(proxy: EgressProxy, text: string | Buffer): Promise<string> {
  const socket = open(proxy);
  socket.write(text);
  let got = "";
  socket.setEncoding("latin1");
  socket.on("data", (d: string) => (got += d));
  await once(socket, "close");
  return got;
}

/** Reads from `socket` until `got` contains `until`. */
async function readUntil(socket: Socket, until: string): Promise<string> {
  let got = "";
  socket.setEncoding("latin1");
  while (!got.includes(until)) {
    const [chunk] = (await once(socket, "data")) as [string];
    got += chunk;
  }
  return got;
}

test("CONNECT to a listed host tunnels both ways; the bytes after the head are passed on", { skip }, () =>
  upstreams((echo) =>
    withProxy([`127.0.0.1:${echo}`], async (proxy, blocked) => {
      const socket = open(proxy);
      socket.write(`CONNECT 127.0.0.1:${echo} HTTP/1.1\r\nHost: 127.0.0.1:${echo}\r\n\r\nearly `);
      const head = await readUntil(socket, "early ");
      assert.match(head, /^HTTP\/1\.1 200 Connection Established\r\n\r\nearly $/);
      socket.write("later");
      assert.equal(await readUntil(socket, "later"), "later");
      socket.destroy();
      assert.deepEqual(blocked, []);
    }),
  ),
);

test("an unlisted host is 403 with a note, by CONNECT or plain HTTP; nothing is connected", { skip }, () =>
  upstreams((echo, web) =>
    withProxy(["api.openai.com"], async (proxy, blocked) => {
      assert.match(
        await exchange(proxy, `CONNECT 127.0.0.1:${echo} HTTP/1.1\r\n\r\n`),
        /^HTTP\/1\.1 403 Forbidden\r\n/,
      );
      assert.match(await exchange(proxy, `CONNECT localhost:${echo} HTTP/1.1\r\n\r\n`), /^HTTP\/1\.1 403 /);
      assert.match(
        await exchange(proxy, `GET http://localhost:${web}/x HTTP/1.1\r\nHost: localhost\r\n\r\n`),
        /^HTTP\/1\.1 403 /,
      );
      assert.match(
        await exchange(proxy, `CONNECT api.openai.com.evil.test:443 HTTP/1.1\r\n\r\n`),
        /blocked by the sandbox: connect api.openai.com.evil.test:443/,
      );
      assert.deepEqual(blocked, [
        `127.0.0.1:${echo}`,
        `localhost:${echo}`,
        `localhost:${web}`,
        "api.openai.com.evil.test:443",
      ]);
    }),
  ),
);

test(
  "plain HTTP to a listed host: origin-form upstream, the URL's Host, proxy headers dropped, one request per connection",
  { skip },
  () =>
    upstreams((_echo, web) =>
      withProxy([`127.0.0.1:${web}`], async (proxy) => {
        const got = await exchange(
          proxy,
          `GET http://127.0.0.1:${web}/a/b?c=1 HTTP/1.1\r\nHost: other-site.example\r\nProxy-Authorization: Basic eA==\r\nConnection: keep-alive\r\n\r\n`,
        );
        assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
        assert.match(got, new RegExp(`path=/a/b\\?c=1 host=127\\.0\\.0\\.1:${web} conn=close proxy=-$`));
      }),
    ),
);

test("what is not a proxy request is 400; a head over the cap is 431; nothing is noted", { skip }, () =>
  withProxy(["example.com"], async (proxy, blocked) => {
    for (const bad of [
      "hello\r\n\r\n",
      "GET /relative HTTP/1.1\r\n\r\n",
      "GET https://example.com/ HTTP/1.1\r\n\r\n",
      "GET http://user:pw@example.com/ HTTP/1.1\r\n\r\n",
      "CONNECT example.com HTTP/1.1\r\n\r\n",
      "CONNECT example.com:99999 HTTP/1.1\r\n\r\n",
      "GET ftp://example.com/ HTTP/1.1\r\n\r\n",
    ])
      assert.match(await exchange(proxy, bad), /^HTTP\/1\.1 400 Bad Request\r\n/, JSON.stringify(bad));
    const huge = Buffer.alloc(MAX_HEAD_BYTES * 4, 0x61);
    assert.match(
      await exchange(proxy, Buffer.concat([Buffer.from("GET http://example.com/ HTTP/1.1\r\nX: "), huge])),
      /^HTTP\/1\.1 431 /,
    );
    assert.deepEqual(blocked, []);
  }),
);

test("a client that closes mid-tunnel ends the upstream connection; closing the proxy ends the rest", { skip }, () =>
  upstreams((echo, _web, echoSockets) =>
    withProxy([`127.0.0.1:${echo}`], async (proxy) => {
      const a = open(proxy);
      a.write(`CONNECT 127.0.0.1:${echo} HTTP/1.1\r\n\r\n`);
      await readUntil(a, "\r\n\r\n");
      const b = open(proxy);
      b.write(`CONNECT 127.0.0.1:${echo} HTTP/1.1\r\n\r\n`);
      await readUntil(b, "\r\n\r\n");
      assert.equal(echoSockets.size, 2);
      a.destroy();
      while (echoSockets.size > 1) await new Promise((r) => setTimeout(r, 10));
      const closed = once(b, "close");
      await proxy.close();
      await closed;
      while (echoSockets.size > 0) await new Promise((r) => setTimeout(r, 10));
    }),
  ),
);

test("an unreachable listed host is 502, not a hang", { skip }, () =>
  withProxy(["127.0.0.1"], async (proxy) => {
    const spare = createServer();
    const port = await listenLocal(spare);
    spare.close();
    await once(spare, "close");
    assert.match(await exchange(proxy, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`), /^HTTP\/1\.1 502 /);
  }),
);
