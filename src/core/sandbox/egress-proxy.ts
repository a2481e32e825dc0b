/**
 * The egress proxy of a sandbox with allowed hosts (#34): an HTTP proxy in the process that owns the session (the
 * CLI or the extension host), the sandboxed agent's only way out. It serves `CONNECT host:port` (TLS tunnels) and
 * plain-HTTP requests with an absolute URI (`GET http://host/path`), lets a host through only when the allow-list
 * (hosts.ts) matches the name the client asked for, then connects to that name; anything else is answered 403 and
 * reported (`onBlocked`), a malformed request 400. Linux listens on a unix socket in a private 0700 folder that
 * the sandbox binds in (the agent has no network of its own: see egress-bridge.ts); macOS on 127.0.0.1, the only
 * place its Seatbelt profile lets the agent connect to. A request's head is capped (`MAX_HEAD_BYTES`); after it,
 * bytes are piped with back-pressure, so nothing buffers without bound. One request per connection: a plain-HTTP
 * request is sent upstream with `Connection: close`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { privateFolder } from "./private-folder";
import { Emitter } from "../lifecycle";
import { hostAllowed, splitHostPort, type HostRule } from "./hosts";

export const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 30_000;

export type EgressListen = { unix: string } | { tcp: number };

export interface EgressProxy {
  /** Where the sandbox reaches it: the socket (Linux) or the loopback port (macOS). */
  readonly listen: EgressListen;
  /** The private folder holding the socket (Linux), removed on close. */
  readonly dir?: string;
  /** A host the agent asked for and was refused: `host:port`. */
  readonly onBlocked: (listener: (target: string) => void) => { dispose(): void };
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  rules: readonly HostRule[];
  /** Linux: a folder of our own under which the socket's private folder is made. macOS: undefined (loopback TCP). */
  parent?: string;
}

/** The request line and headers of one request, or why it is not one we serve. */
type Head = { method: string; target: string; headers: string[] } | { error: string };

function parseHead(text: string): Head {
  const [line = "", ...headers] = text.split("\r\n");
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(line);
  if (!m) return { error: "not an HTTP/1 request line" };
  return { method: m[1]!, target: m[2]!, headers };
}

/** `host:port` of a CONNECT, or the absolute `http://` URI of a plain request: where to connect, and the path. */
function destination(head: {
  method: string;
  target: string;
}): { host: string; port: number; path?: string; authority?: string } | undefined {
  if (head.method === "CONNECT") {
    const parts = splitHostPort(head.target);
    const port = Number(parts?.port);
    return parts && port >= 1 && port <= 65535 ? { host: parts.host, port } : undefined;
  }
  let url: URL;
  try {
    url = new URL(head.target);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || url.username || url.password) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port: Number(url.port || 80), path: `${url.pathname}${url.search}`, authority: url.host };
}

/**
 * The plain request's head for the origin server: origin-form target, no proxy headers, one request, and the Host
 * the allowed URL names (a different Host header would pick another site on a shared server: a CDN's customer).
 */
function originHead(head: { method: string; headers: string[] }, path: string, authority: string): string {
  const dropped = /^(proxy-[\w-]*|connection|keep-alive|host):/i;
  const headers = head.headers.filter((h) => h && !dropped.test(h));
  return [`${head.method} ${path} HTTP/1.1`, `Host: ${authority}`, ...headers, "Connection: close", "", ""].join(
    "\r\n",
  );
}

function answer(socket: Socket, status: string, body = ""): void {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Ties two sockets: either closing or failing ends the other. */
function join2(a: Socket, b: Socket): void {
  a.on("error", () => b.destroy());
  b.on("error", () => a.destroy());
  a.on("close", () => b.destroy());
  b.on("close", () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

class Proxy {
  readonly #blocked = new Emitter<string>();
  readonly onBlocked = this.#blocked.event;
  readonly #open = new Set<Socket>();

  constructor(private readonly rules: readonly HostRule[]) {}

  serve = (client: Socket): void => {
    this.#track(client);
    client.on("error", () => client.destroy());
    client.setTimeout(HEAD_TIMEOUT_MS, () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) {
          client.off("data", onData);
          answer(client, "431 Request Header Fields Too Large");
        }
        return;
      }
      client.off("data", onData);
      client.pause();
      client.setTimeout(0);
      this.#route(client, head.subarray(0, end).toString("latin1"), head.subarray(end + 4));
    };
    client.on("data", onData);
  };

  #route(client: Socket, text: string, rest: Buffer): void {
    const head = parseHead(text);
    if ("error" in head) return answer(client, "400 Bad Request", `${head.error}\n`);
    const to = destination(head);
    if (!to) return answer(client, "400 Bad Request", "CONNECT host:port or an absolute http:// URI\n");
    const target = `${to.host.includes(":") ? `[${to.host}]` : to.host}:${to.port}`;
    if (!hostAllowed(this.rules, to.host, to.port)) {
      this.#blocked.fire(target);
      return answer(client, "403 Forbidden", `blocked by the sandbox: connect ${target}\n`);
    }
    const upstream = connect({ host: to.host, port: to.port });
    this.#track(upstream);
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy());
    const failed = () => answer(client, "502 Bad Gateway", `cannot connect to ${target}\n`);
    upstream.once("error", failed);
    client.once("close", () => upstream.destroy());
    upstream.once("connect", () => {
      upstream.off("error", failed);
      upstream.setTimeout(0);
      if (to.path === undefined) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      else upstream.write(originHead(head, to.path, to.authority!));
      if (rest.length) upstream.write(rest);
      join2(client, upstream);
      client.resume();
    });
  }

  #track(socket: Socket): void {
    this.#open.add(socket);
    socket.once("close", () => this.#open.delete(socket));
  }

  destroyAll(): void {
    for (const socket of this.#open) socket.destroy();
    this.#blocked.dispose();
  }
}

function listening(server: Server, where: string | { port: number; host: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(where, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Starts the proxy; `close()` ends every connection, stops it and removes its folder. */
export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const proxy = new Proxy(opts.rules);
  const server = createServer({ pauseOnConnect: false }, proxy.serve);
  server.unref(); // the owner closes it with the session; it never keeps a finished CLI alive
  let dir: string | undefined;
  let listen: EgressListen;
  if (opts.parent) {
    dir = await mkdtemp(join(await privateFolder(opts.parent, "the sandbox's egress proxy"), "p-"));
    listen = { unix: join(dir, "s") };
    await listening(server, listen.unix);
  } else {
    await listening(server, { port: 0, host: "127.0.0.1" });
    listen = { tcp: (server.address() as { port: number }).port };
  }
  let closing: Promise<void> | undefined;
  return {
    listen,
    dir,
    onBlocked: proxy.onBlocked,
    close() {
      closing ??= (async () => {
        proxy.destroyAll();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (dir) await rm(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
