/**
 * Where the warm recall process of one index listens, and who may talk to it. The name carries a key of the
 * code that answers (the bundle file's size and mtime, the index schema and this protocol's version), so a CLI
 * after an upgrade never asks an older process: it starts its own, and the old one idle-exits. The socket sits
 * next to the index (a folder only the user can read) or, when that path is too long for a Unix socket, in a
 * private folder under the temp dir. Windows: no warm process (named pipes are readable by other accounts by
 * default), queries run in the CLI process.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { RecentOptions } from "../recent";
import type { TextFormat } from "../render";
import { shortHash } from "../model";
import { SCHEMA_VERSION } from "../schema";
import type { SearchOptions } from "../search";

export const WARM_PROTOCOL = 1;
/** sun_path is 104 bytes on macOS, 108 on Linux, including the terminating NUL. */
const MAX_SOCKET_PATH = 100;

/**
 * The CLI's recall bundle (dist/cli/recall.js, which serves) and its dispatcher (dist/cli.js, which is spawned),
 * when this code runs from the built CLI; undefined elsewhere (tests bundle the engine in-process: no warm process).
 */
export function warmEntry(): { bundle: string; cli: string } | undefined {
  const bundle = join(__dirname, "recall.js");
  const cli = join(__dirname, "..", "cli.js");
  return basename(__dirname) === "cli" && existsSync(bundle) && existsSync(cli) ? { bundle, cli } : undefined;
}

/** A short hash of the code answering: the serving bundle file, the schema, the protocol. */
export function codeKey(file: string): string {
  let stamp = "";
  try {
    const st = statSync(file);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    // bundled away: the schema and protocol still tell versions apart
  }
  return shortHash(`${file}|${stamp}|${SCHEMA_VERSION}|${WARM_PROTOCOL}`);
}

/** The socket for the index at `dbPath`, or undefined where there is no warm process (Windows). */
export function warmSocketPath(dbPath: string, key: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const near = join(dirname(dbPath), `recall-${key}.sock`);
  if (Buffer.byteLength(near) <= MAX_SOCKET_PATH) return near;
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const dir = join(tmpdir(), `acp-threads-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if (st.uid !== uid || (st.mode & 0o077) !== 0) return undefined; // someone else's folder: no warm process
  const home = shortHash(dbPath);
  return join(dir, `recall-${home}-${key}.sock`);
}

/**
 * The warm process's key (store/door-key.ts), beside the index whatever folder the socket is in: a request must carry
 * it, so a process that reaches the socket but cannot read the data home (a sandboxed agent) reads no threads.
 */
export const warmKeyFile = (dbPath: string, key: string): string => join(dirname(dbPath), `recall-${key}.key`);

export type WarmRequest =
  /** With `render`, the answer is the printed text; without, the result object. */
  | { op: "search"; query: string; opts: SearchOptions; render?: TextFormat }
  | { op: "recent"; opts: RecentOptions; render?: TextFormat }
  | { op: "status" }
  | { op: "stop" };

/** `no_key`: the request did not carry the process's key (a client to fall back from, not a wrong query). */
export type WarmReply = { ok: true; result: unknown } | { ok: false; error: string; code?: "no_key" };
