/**
 * A terminal's last output, kept. node-pty reads a terminal through a libuv stream, and libuv ends a stream when
 * the poll reports a hang-up right after a short read, taking the short read to mean "nothing more is queued". A
 * pseudo-terminal's master gives at most 4095 bytes a read, so every read is short: when the program ends (its
 * side of the terminal hangs up) while more of its output is still queued in the kernel, the stream ends and node
 * closes the terminal without reading it. Measured: a fast writer's tail lost in 3 of 5 runs on an idle machine and
 * 16 of 20 under load; most likely also the hosted exec run that lost its last line in a loaded CI rehearsal
 * (docs/stop-49/lead.md).
 *
 * Once the program's side is closed, a read of the master returns what is queued (the kernel flushes its buffers
 * first) and then fails with EIO, so reading the terminal to that end when its stream ends, before node closes it,
 * gets the tail back. Every node-pty terminal started here goes through `spawnPtyKeepingTail`: in this
 * process, in the extension host's spawner, in the thread host. Windows terminals (ConPTY) are read differently
 * and are left alone.
 */
import { readSync } from "node:fs";
import type { IPty, IPtyForkOptions } from "node-pty";
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

/** Reads of at most 64 KiB: the kernel queues about 68 KiB a terminal, so this bound is never the limit. */
const MAX_TAIL_READS = 64;

/** What node-pty's Unix terminal has and its typings do not name: its master's fd and the stream reading it. */
interface UnixTerminalParts {
  _fd?: unknown;
  _socket?: { push: (chunk: unknown, encoding?: BufferEncoding) => boolean };
}

/** `nodePty.spawn` that keeps the terminal's last output (above). */
export function spawnPtyKeepingTail(
  nodePty: typeof import("node-pty"),
  file: string,
  args: string | string[],
  opts: IPtyForkOptions,
): IPty {
  const term = nodePty.spawn(file, args, opts);
  keepPtyTail(term);
  return term;
}

/**
 * Makes `term`'s stream read what is still queued when it ends, before it ends. It goes in as the stream's own
 * data (through its decoder, so a character split at a read's end stays whole) right before the end.
 */
export function keepPtyTail(term: IPty, platform: Platform = HOST_PLATFORM): void {
  const { _fd: fd, _socket: socket } = term as unknown as UnixTerminalParts;
  if (isWindows(platform) || typeof fd !== "number" || typeof socket?.push !== "function") return;
  const push = socket.push.bind(socket);
  socket.push = (chunk, encoding) => {
    if (chunk === null) {
      socket.push = push;
      for (const tail of queued(fd)) push(tail);
    }
    return push(chunk, encoding);
  };
}

/** What a terminal's master still holds: read until the kernel says the end (EIO, or EAGAIN while it is open). */
function* queued(fd: number): Generator<Buffer> {
  const buf = Buffer.alloc(64 * 1024);
  for (let i = 0; i < MAX_TAIL_READS; i++) {
    let n: number;
    try {
      n = readSync(fd, buf);
    } catch {
      return; // EIO: all of it was read; EAGAIN: its other side is still open (a child holds it), nothing queued
    }
    if (n <= 0) return;
    yield Buffer.from(buf.subarray(0, n));
  }
}
