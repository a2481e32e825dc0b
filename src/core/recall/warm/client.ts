/**
 * Asking the warm recall process (server.ts), and starting it when nobody answers. A read tries the socket
 * first; with no server there (or a broken one) the caller answers in its own process and `startWarm` spawns a
 * detached server for the next call, so the first call is never slower for it. ACP_THREADS_RECALL_DAEMON=0
 * turns the warm process off; ACP_THREADS_RECALL_IDLE_SECONDS sets how long it stays (600).
 */
import { lstatSync } from "node:fs";
import { connect } from "node:net";
import { readDoorKey } from "../../store/door-key";
import { codeKey, warmEntry, warmKeyFile, warmSocketPath, type WarmReply, type WarmRequest } from "./socket";

export const DEFAULT_IDLE_SECONDS = 600;

export interface WarmTarget {
  socket: string;
  /** The warm process's key, which every request carries (socket.ts `warmKeyFile`). */
  keyFile: string;
  /** The dispatcher to spawn, the bundle that serves and its code key. */
  cli: string;
  bundle: string;
  key: string;
}

/** Where this index's warm process would listen, or undefined when there is none to use (off, Windows, tests). */
export function warmTarget(dbPath: string, env: NodeJS.ProcessEnv): WarmTarget | undefined {
  if (env.ACP_THREADS_RECALL_DAEMON === "0" || env.ACP_THREADS_RECALL_DAEMON === "off") return undefined;
  const entry = warmEntry();
  if (!entry) return undefined;
  const key = codeKey(entry.bundle);
  const socket = warmSocketPath(dbPath, key);
  return socket ? { socket, keyFile: warmKeyFile(dbPath, key), cli: entry.cli, bundle: entry.bundle, key } : undefined;
}

/** One request; rejects when nothing listens (ENOENT, ECONNREFUSED), the server fails, or after `timeoutMs`. */
export function askWarm(
  target: Pick<WarmTarget, "socket" | "keyFile">,
  req: WarmRequest,
  timeoutMs = 30_000,
): Promise<unknown> {
  const { socket } = target;
  return new Promise((resolve, reject) => {
    // a socket someone else made (a shared or writable home): never take answers from another account
    const st = lstatSync(socket, { throwIfNoEntry: false });
    if (!st) return reject(Object.assign(new Error(`no warm recall process at ${socket}`), { code: "ENOENT" }));
    if (typeof process.getuid === "function" && st.uid !== process.getuid())
      return reject(new Error(`${socket} belongs to another user`));
    const conn = connect(socket);
    let buf = "";
    const timer = setTimeout(() => conn.destroy(new Error("the warm recall process did not answer")), timeoutMs);
    conn.setEncoding("utf8");
    conn.on("connect", () => {
      readDoorKey(target.keyFile).then(
        (key) => conn.write(`${JSON.stringify({ ...req, key })}\n`),
        (err: Error) => conn.destroy(err),
      );
    });
    conn.on("data", (d: string) => (buf += d));
    conn.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    conn.on("end", () => {
      clearTimeout(timer);
      try {
        const reply = JSON.parse(buf) as WarmReply;
        if (reply.ok) resolve(reply.result);
        else if (reply.code === "no_key") reject(new Error(`the warm recall process refused: ${reply.error}`));
        else reject(new WarmError(reply.error));
      } catch {
        reject(new Error("the warm recall process sent a broken answer"));
      }
    });
  });
}

/** An error the server reported for the request itself (a bad query): the caller shows it, it does not retry. */
export class WarmError extends Error {}

/** Spawns a detached warm process for the index of `home` (it exits at once if another one got there first). */
export function startWarm(target: WarmTarget, env: NodeJS.ProcessEnv): void {
  try {
    // loaded only to start the process (2 ms to load): a call the warm process answers never needs it
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const child = spawn(process.execPath, [target.cli, "recall", "serve"], {
      detached: true,
      stdio: "ignore",
      env: { ...env, ACP_THREADS_RECALL_DAEMON: "serve" },
    });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no warm process this time: the next call tries again
  }
}
