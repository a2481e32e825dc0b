/**
 * The warm recall process: one per index (and code version), started on demand by a CLI query or the MCP
 * server, answering their reads over a Unix socket from an index it keeps open with optimized WASM code, so an
 * agent's repeated `acp-threads recall` calls pay node's start and a socket round trip instead of SQLite's
 * start-up. One newline-delimited JSON request per connection. It leaves on its own: after `idleMs` without a
 * request, when its socket or the index folder disappears, when its code on disk changed, or on a "stop" request. Two windows, two CLIs or two
 * MCP servers starting it at once are safe: the socket's lock admits one server, the others exit.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tryAcquireLock } from "../../store/file-lock";
import { openRecall, type Recall } from "../recall";
import { renderRecent, renderSearch } from "../render";
import { keyMatches, writeDoorKey } from "../../store/door-key";
import type { WarmReply, WarmRequest } from "./socket";

export interface ServeOptions {
  home: string;
  dbPath: string;
  socket: string;
  /** Where the key every request must carry is written (socket.ts `warmKeyFile`). */
  keyFile: string;
  idleMs: number;
  /** How often to look for the socket and the index folder (default 2 s). */
  checkMs?: number;
  /** True once the code on disk is not the code running (a rebuild or an upgrade): then this server leaves. */
  stale?: () => boolean;
  log?: (line: string) => void;
  /** Stops the server (SIGTERM, SIGINT). */
  signal?: AbortSignal;
}

/** Serves until idle or stopped; resolves "busy" at once when another server holds this socket. */
export async function serveWarm(o: ServeOptions): Promise<"idle" | "stopped" | "gone" | "busy"> {
  const lock = tryAcquireLock(o.socket, { label: `warm recall process (pid ${process.pid})` });
  if (!lock.ok) return "busy";
  let recall: Recall | undefined;
  let ino = -1;
  /** The index, reopened when the file was replaced (rebuilt for a new schema, deleted) since it was opened. */
  const index = (): Recall => {
    const now = statSync(o.dbPath, { throwIfNoEntry: false })?.ino ?? -1;
    if (recall && now !== ino) {
      recall.close();
      recall = undefined;
    }
    if (!recall) {
      recall = openRecall(o.home, { dbPath: o.dbPath });
      ino = statSync(o.dbPath).ino;
    }
    return recall;
  };
  const answer = (req: WarmRequest): unknown => {
    switch (req.op) {
      case "search": {
        const r = index().search(req.query, req.opts);
        return req.render ? renderSearch(r, req.render) : r;
      }
      case "recent": {
        const r = index().recent(req.opts);
        return req.render ? renderRecent(r, req.render) : r;
      }
      case "status":
        return index().status();
      case "stop":
        return "stopping";
      default:
        throw new Error(`unknown request '${(req as { op?: unknown }).op}'`);
    }
  };

  return new Promise((resolve) => {
    let idle: NodeJS.Timeout;
    let done = false;
    const finish = (why: "idle" | "stopped" | "gone") => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearInterval(watch);
      server.close();
      rmSync(o.socket, { force: true });
      recall?.close();
      lock.release();
      o.log?.(`warm recall process: exit (${why})`);
      resolve(why);
    };
    const arm = () => {
      if (done) return; // a request answered after the stop must not start a new idle wait
      clearTimeout(idle);
      idle = setTimeout(() => finish("idle"), o.idleMs);
    };
    const server = createServer({ allowHalfOpen: false }, (conn: Socket) => {
      arm();
      let buf = "";
      conn.setEncoding("utf8");
      conn.on("data", (chunk: string) => {
        buf += chunk;
        const nl = buf.indexOf("\n");
        if (nl < 0) return;
        let reply: WarmReply;
        let req: WarmRequest | undefined;
        try {
          const parsed = JSON.parse(buf.slice(0, nl)) as WarmRequest & { key?: unknown };
          if (keyMatches(doorKey, parsed.key)) {
            req = parsed;
            reply = { ok: true, result: answer(req) };
          } else reply = { ok: false, error: "a request without the warm process's key", code: "no_key" };
        } catch (err) {
          reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
        }
        conn.end(`${JSON.stringify(reply)}\n`);
        if (req?.op === "stop") finish("stopped");
        arm();
      });
      conn.on("error", () => conn.destroy());
    });
    // a home deleted under us (a test's temp folder, a user's cleanup): nobody will ask again
    const watch = setInterval(() => {
      if (!existsSync(o.socket) || o.stale?.()) finish("gone");
    }, o.checkMs ?? 2000);
    watch.unref();
    if (o.signal?.aborted) queueMicrotask(() => finish("stopped"));
    o.signal?.addEventListener("abort", () => finish("stopped"), { once: true });
    rmSync(o.socket, { force: true }); // a socket file left by a killed server (we hold its lock now)
    const doorKey = writeDoorKey(o.keyFile);
    server.on("error", (err) => {
      o.log?.(`warm recall process: ${err.message}`);
      finish("gone");
    });
    server.listen(o.socket, () => {
      o.log?.(`warm recall process: listening on ${o.socket}`);
      arm();
    });
  });
}
