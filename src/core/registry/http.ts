/**
 * Reading a URL (http, https, file) with redirects, a deadline and progress: the registry index and the agents'
 * archives. Downloads stream to a file and hash on the way (sha256), so a large archive never sits in memory.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";

export interface GetOptions {
  /** Whole-request deadline. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Bytes so far and the total when the server says. */
  onBytes?: (received: number, total: number | undefined) => void;
}

const MAX_REDIRECTS = 10;

class HttpError extends Error {}

/** Opens `url` (following redirects) and resolves with the body stream and its announced length. */
async function open(url: string, signal: AbortSignal): Promise<{ body: Readable; total?: number }> {
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol === "file:") {
      const path = fileURLToPath(current);
      return { body: createReadStream(path, { signal }), total: statSync(path).size };
    }
    if (current.protocol !== "http:" && current.protocol !== "https:")
      throw new HttpError(`unsupported URL scheme ${current.protocol} (${url})`);
    const get = current.protocol === "https:" ? https.get : http.get;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = get(current, { signal, headers: { "user-agent": "acp-threads" } }, resolve);
      req.on("error", reject);
    });
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      current = new URL(res.headers.location, current);
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new HttpError(`HTTP ${status} for ${current.href}`);
    }
    const len = Number(res.headers["content-length"]);
    return { body: res, total: Number.isFinite(len) && len > 0 ? len : undefined };
  }
  throw new HttpError(`too many redirects for ${url}`);
}

/** Runs `work` with a signal that fires on the caller's abort or the deadline; the deadline becomes a clear error. */
async function withDeadline<T>(url: string, opts: GetOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer =
    opts.timeoutMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          ctl.abort();
        }, opts.timeoutMs)
      : undefined;
  try {
    return await work(ctl.signal);
  } catch (err) {
    if (timedOut) throw new HttpError(`no answer from ${url} within ${opts.timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

function counting(body: Readable, total: number | undefined, opts: GetOptions): Readable {
  let received = 0;
  body.on("data", (chunk: Buffer) => {
    received += chunk.length;
    opts.onBytes?.(received, total);
  });
  return body;
}

/** The whole body of `url` as bytes. */
export function getBytes(url: string, opts: GetOptions = {}): Promise<Buffer> {
  return withDeadline(url, opts, async (signal) => {
    const { body, total } = await open(url, signal);
    const chunks: Buffer[] = [];
    for await (const chunk of counting(body, total, opts)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
}

/** Streams `url` into `file` (created 0600) and resolves with the body's sha256 (hex). */
export function downloadTo(url: string, file: string, opts: GetOptions = {}): Promise<string> {
  return withDeadline(url, opts, async (signal) => {
    const { body, total } = await open(url, signal);
    const hash = createHash("sha256");
    body.on("data", (chunk: Buffer) => hash.update(chunk));
    await pipeline(counting(body, total, opts), createWriteStream(file, { mode: 0o600 }), { signal });
    return hash.digest("hex");
  });
}
