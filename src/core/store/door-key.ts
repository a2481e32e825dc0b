/**
 * The thread host's key: a secret the host writes when it takes its socket (`<host dir>/key`, 0600, whole-file) and
 * every client reads and says in its first `hello`. The socket's modes keep other users out; the key keeps out the
 * user's own processes that cannot read the data home: a sandboxed agent (the sandbox hides the data home whole)
 * that reaches the socket anyway (Seatbelt leaves unix sockets open on macOS; a Linux sandbox without the seccomp
 * filter; the socket's temp-folder fallback), which would otherwise ask the host to run anything unsandboxed.
 * Until a connection's hello gives the key, the host answers it nothing else.
 *
 * Over the thread host's door the key itself never travels: each side proves it holds it for this connection's two
 * nonces (`doorProof`), the host first. A process that took the door's name before the host (another user's named
 * pipe on Windows, where the pipe namespace is shared) cannot prove it, so a client tells it nothing, and learns
 * nothing it could replay.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-write";

/** A new key for a host that is about to listen, written before its socket exists. */
export function writeDoorKey(path: string): string {
  const key = randomBytes(32).toString("hex");
  writeFileAtomic(path, key, { mode: 0o600 });
  return key;
}

/** The running host's key, as a client reads it (undefined: none written, or not readable by this process). */
export async function readDoorKey(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim();
  } catch {
    return undefined;
  }
}

/** A fresh nonce for one side of a connection's handshake (hex). */
export const doorNonce = (): string => randomBytes(16).toString("hex");

/** What `side` shows to prove it holds `key` on the connection of these two nonces: an HMAC, never the key. */
export function doorProof(key: string, side: "host" | "client", clientNonce: string, hostNonce: string): string {
  return createHmac("sha256", key).update(`acp-threads door\n${side}\n${clientNonce}\n${hostNonce}`).digest("hex");
}

/** Whether `given` is the host's key, or the proof expected (compared in constant time). */
export function keyMatches(key: string, given: unknown): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(key);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
