/**
 * GET over https (and http to this machine: download-url.ts) with checked redirects, a size cap, deadlines and
 * progress: the registry index and the agents' archives. Downloads stream to a file and hash on the way
 * (sha256), so a large archive never sits in memory. A `file:` URL is read only when the caller allows it and only
 * as the first URL (the user's own copy of the registry), never where a redirect leads.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { downloadUrlProblem, redirectProblem } from "./download-url";

/** The registry index is a few hundred KB; more is not a registry. */
export const REGISTRY_MAX_BYTES = 8 * 1024 * 1024;
/** The largest agent archive downloaded (today's biggest are ~150 MB). */
export const ARCHIVE_MAX_BYTES = 512 * 1024 * 1024;
/** How long a server may take to answer a request (each redirect's too). */
export const ANSWER_TIMEOUT_MS = 30_000;
/** How long a body may stall between two chunks. */
export const IDLE_TIMEOUT_MS = 30_000;
/** A whole archive download (512 MB at ~300 KB/s). */
export const ARCHIVE_TIMEOUT_MS = 30 * 60_000;
export const MAX_REDIRECTS = 5;

export interface GetOptions {
  /** Whole-request deadline. */
  timeoutMs?: number;
  /** Wait for the server's answer (headers), per request; default ANSWER_TIMEOUT_MS. */
  answerMs?: number;
  /** Longest gap between two chunks of the body; default IDLE_TIMEOUT_MS. */
  idleMs?: number;
  /** The body's size cap (refused from its announced length, or once it grows past the cap). */
  maxBytes?: number;
  /** Read `url` itself when it is a `file:` URL (never a redirect's target). */
  allowFile?: boolean;
  signal?: AbortSignal;
  /** Bytes so far and the total when the server says. */
  onBytes?: (received: number, total: number | undefined) => void;
}

class HttpError extends Error {}

/** One request's deadlines: a watch that fires when the server keeps quiet too long, and the total. */
class Watch {
  readonly ctl = new AbortController();
  reason: string | undefined;
  #step: NodeJS.Timeout | undefined;
  readonly #total: NodeJS.Timeout | undefined;

  constructor(url: string, totalMs: number | undefined) {
    this.#total =
      totalMs !== undefined
        ? setTimeout(() => this.fire(`no answer from ${url} within ${totalMs} ms`), totalMs)
        : undefined;
  }

  fire(reason: string): void {
    this.reason ??= reason;
    this.ctl.abort();
  }

  /** (Re)starts the quiet-time watch: `reason` unless something happens within `ms`. */
  arm(ms: number, reason: string): void {
    clearTimeout(this.#step);
    this.#step = setTimeout(() => this.fire(reason), ms);
  }

  stop(): void {
    clearTimeout(this.#step);
    clearTimeout(this.#total);
  }
}

function lengthOf(res: http.IncomingMessage): number | undefined {
  const len = Number(res.headers["content-length"]);
  return Number.isFinite(len) && len > 0 ? len : undefined;
}

/** Opens `url` (following checked redirects) and resolves with the body stream and its announced length. */
async function open(url: string, opts: GetOptions, watch: Watch): Promise<{ body: Readable; total?: number }> {
  let current = new URL(url);
  if (current.protocol === "file:" && opts.allowFile) {
    const path = fileURLToPath(current);
    return { body: createReadStream(path, { signal: watch.ctl.signal }), total: statSync(path).size };
  }
  const refused = downloadUrlProblem(current);
  if (refused) throw new HttpError(refused);
  const seen = new Set<string>();
  const answerMs = opts.answerMs ?? ANSWER_TIMEOUT_MS;
  for (let hop = 0; ; hop++) {
    seen.add(current.href);
    const get = current.protocol === "https:" ? https.get : http.get;
    watch.arm(answerMs, `no answer from ${current.href} within ${answerMs} ms`);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = get(current, { signal: watch.ctl.signal, headers: { "user-agent": "acp-threads" } }, resolve);
      req.on("error", reject);
    });
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      const next = new URL(res.headers.location, current);
      const problem = redirectProblem(current, next);
      if (problem) throw new HttpError(`${url}: ${problem}`);
      if (seen.has(next.href)) throw new HttpError(`${url}: a redirect loop (${current.href} → ${next.href})`);
      if (hop >= MAX_REDIRECTS) throw new HttpError(`${url}: more than ${MAX_REDIRECTS} redirects`);
      current = next;
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new HttpError(`HTTP ${status} for ${current.href}`);
    }
    return { body: res, total: lengthOf(res) };
  }
}

/** Runs `work` with a signal that fires on the caller's abort or a deadline; a deadline becomes a clear error. */
async function watched<T>(url: string, opts: GetOptions, work: (watch: Watch) => Promise<T>): Promise<T> {
  const watch = new Watch(url, opts.timeoutMs);
  const onAbort = () => watch.ctl.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await work(watch);
  } catch (err) {
    if (watch.reason) throw new HttpError(watch.reason, { cause: err });
    throw err;
  } finally {
    watch.stop();
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

/** The body, capped at `maxBytes`, its stalls watched, its progress reported. */
function metered(
  url: string,
  body: Readable,
  total: number | undefined,
  maxBytes: number,
  opts: GetOptions,
  watch: Watch,
): Readable {
  const tooBig = (n: number) => `${url} is larger than the ${maxBytes} bytes allowed (${n} bytes)`;
  if (total !== undefined && total > maxBytes) {
    body.destroy();
    throw new HttpError(tooBig(total));
  }
  const idleMs = opts.idleMs ?? IDLE_TIMEOUT_MS;
  const stalled = `${url} stalled: no data for ${idleMs} ms`;
  watch.arm(idleMs, stalled);
  let received = 0;
  body.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) return void body.destroy(new HttpError(tooBig(received)));
    watch.arm(idleMs, stalled);
    opts.onBytes?.(received, total);
  });
  return body;
}

/** The whole body of `url` as bytes (at most REGISTRY_MAX_BYTES unless `maxBytes` says). */
export function getBytes(url: string, opts: GetOptions = {}): Promise<Buffer> {
  return watched(url, opts, async (watch) => {
    const { body, total } = await open(url, opts, watch);
    const chunks: Buffer[] = [];
    for await (const chunk of metered(url, body, total, opts.maxBytes ?? REGISTRY_MAX_BYTES, opts, watch))
      chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
}

/**
 * Streams `url` into `file` (created 0600) and resolves with the body's sha256 (hex); at most ARCHIVE_MAX_BYTES
 * within ARCHIVE_TIMEOUT_MS unless the options say.
 */
export function downloadTo(url: string, file: string, opts: GetOptions = {}): Promise<string> {
  const o = { ...opts, timeoutMs: opts.timeoutMs ?? ARCHIVE_TIMEOUT_MS };
  return watched(url, o, async (watch) => {
    const { body, total } = await open(url, o, watch);
    const hash = createHash("sha256");
    const capped = metered(url, body, total, o.maxBytes ?? ARCHIVE_MAX_BYTES, o, watch);
    capped.on("data", (chunk: Buffer) => hash.update(chunk));
    await pipeline(capped, createWriteStream(file, { mode: 0o600 }), { signal: watch.ctl.signal });
    return hash.digest("hex");
  });
}
