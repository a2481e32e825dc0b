/**
 * Hostile servers for the registry's downloads (all on 127.0.0.1): a redirect to a local file, https down to
 * http, plain http to another machine, a body past the cap, a stall, a redirect loop.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { downloadTo, getBytes, REGISTRY_MAX_BYTES } from "../../../../src/core/registry/http";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { TEST_CERT, TEST_KEY } from "../../../fixtures/registry/tls";

type Route = (req: IncomingMessage, res: ServerResponse) => void;

interface Served {
  base: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: string, routes: Record<string, Route>): Promise<Served> {
  const requests: string[] = [];
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    requests.push(path);
    (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const serve = (routes: Record<string, Route>) => listen(createServer(), "http", routes);
const serveTls = (routes: Record<string, Route>) =>
  listen(https.createServer({ cert: TEST_CERT, key: TEST_KEY }), "https", routes);
const redirect =
  (location: string): Route =>
  (_req, res) =>
    res.writeHead(302, { location }).end();
const body =
  (bytes: Buffer): Route =>
  (_req, res) =>
    res.writeHead(200, { "content-length": bytes.length }).end(bytes);

async function withServer<T>(served: Promise<Served>, fn: (s: Served) => Promise<T>): Promise<T> {
  const s = await served;
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

test("a redirect to file:///etc/passwd is refused: the local file is never read or saved", () =>
  withTmpDir("http-file-", (dir) =>
    withServer(serve({ "/agent.tar.gz": redirect("file:///etc/passwd") }), async (s) => {
      await assert.rejects(getBytes(`${s.base}/agent.tar.gz`), /file: scheme is refused/);
      await assert.rejects(downloadTo(`${s.base}/agent.tar.gz`, join(dir, "a")), /file: scheme is refused/);
      assert.equal(existsSync(join(dir, "a")), false);
      // nor where the caller allows a file: URL of its own (the registry's)
      await assert.rejects(getBytes(`${s.base}/agent.tar.gz`, { allowFile: true }), /file: scheme is refused/);
    }),
  ));

test("an https download never follows a redirect down to http: refused before any connection", async () => {
  const trusted = https.globalAgent.options.ca;
  https.globalAgent.options.ca = TEST_CERT; // this process's agent trusts the test certificate, nothing else does
  try {
    await withServer(serve({ "/a": body(Buffer.from("plain")) }), (plain) =>
      withServer(serveTls({ "/ok": body(Buffer.from("tls")), "/down": redirect(`${plain.base}/a`) }), async (tls) => {
        assert.equal((await getBytes(`${tls.base}/ok`)).toString(), "tls", "the https server itself is fine");
        await assert.rejects(getBytes(`${tls.base}/down`), /redirect from https to http: is refused/);
        assert.deepEqual(plain.requests, [], "the http server was never asked");
      }),
    );
  } finally {
    https.globalAgent.options.ca = trusted;
  }
});

test("plain http goes only to this machine: a redirect to another host is refused before connecting", () =>
  withServer(serve({ "/a": redirect("http://192.0.2.1/agent.tar.gz") }), async (s) => {
    await assert.rejects(getBytes(`${s.base}/a`, { timeoutMs: 5_000 }), /plain http is refused/);
    await assert.rejects(getBytes("http://192.0.2.1/registry.json", { timeoutMs: 5_000 }), /plain http is refused/);
    await assert.rejects(getBytes(`http://user:pw@127.0.0.1:1/r.json`), /user name or password is refused/);
  }));

test("a body past the cap is refused, whether the server announces its length or not", () =>
  withTmpDir("http-big-", (dir) => {
    const big = Buffer.alloc(5_000, 1);
    const chunked: Route = (_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 5; i++) res.write(big.subarray(0, 1_000));
      res.end();
    };
    const huge = Buffer.alloc(REGISTRY_MAX_BYTES + 1, 0x20);
    return withServer(serve({ "/big": body(big), "/chunked": chunked, "/huge.json": body(huge) }), async (s) => {
      await assert.rejects(
        downloadTo(`${s.base}/big`, join(dir, "a"), { maxBytes: 1_000 }),
        /larger than the 1000 bytes/,
      );
      await assert.rejects(downloadTo(`${s.base}/chunked`, join(dir, "b"), { maxBytes: 1_000 }), /larger than/);
      await assert.rejects(getBytes(`${s.base}/chunked`, { maxBytes: 1_000 }), /larger than/);
      // the registry index's own cap, with no option given
      await assert.rejects(getBytes(`${s.base}/huge.json`), new RegExp(`larger than the ${REGISTRY_MAX_BYTES} bytes`));
      assert.equal((await downloadTo(`${s.base}/big`, join(dir, "c"), { maxBytes: 5_000 })).length, 64);
    });
  }));

test("a server that stalls, before answering or in the middle of the body, meets a deadline", { timeout: 20_000 }, () =>
  withTmpDir("http-stall-", (dir) => {
    const stalls: Route = (_req, res) => {
      res.writeHead(200, { "content-length": 1_000 });
      res.write(Buffer.alloc(10));
    };
    return withServer(serve({ "/stalls": stalls, "/silent": () => {} }), async (s) => {
      await assert.rejects(
        downloadTo(`${s.base}/stalls`, join(dir, "a"), { idleMs: 300 }),
        /stalled: no data for 300 ms/,
      );
      await assert.rejects(getBytes(`${s.base}/stalls`, { idleMs: 300 }), /stalled/);
      await assert.rejects(downloadTo(`${s.base}/silent`, join(dir, "b"), { answerMs: 300 }), /no answer .* 300 ms/);
    });
  }),
);

test("a redirect loop ends at its first repeat; a long chain ends at the redirect cap", () =>
  withServer(
    serve({
      "/loop-a": redirect("/loop-b"),
      "/loop-b": redirect("/loop-a"),
      ...Object.fromEntries([...Array(8).keys()].map((i) => [`/hop-${i}`, redirect(`/hop-${i + 1}`)])),
    }),
    async (s) => {
      await assert.rejects(getBytes(`${s.base}/loop-a`), /redirect loop/);
      assert.deepEqual(s.requests, ["/loop-a", "/loop-b"]);
      await assert.rejects(getBytes(`${s.base}/hop-0`), /more than 5 redirects/);
    },
  ));
