/**
 * The spawner's socket folder (spawner-client.ts): a private 0700 directory made on the thread pool, one-shot Unix
 * sockets listened on in it (0600, the file gone once the spawner connected), and the directory's removal on the
 * thread pool. No file call runs on the caller's thread.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { background } from "../util/unexpected";

export class SpawnerSockets {
  /** The directory, being made on the thread pool (rejects when it cannot be). */
  readonly #dir: Promise<string>;

  /** Starts making the directory; `failed` is told when it cannot be (each `listen` then rejects too). */
  constructor(failed: (e: Error) => void) {
    this.#dir = makeDir().catch((e: Error) => {
      failed(e);
      throw e;
    });
    this.#dir.catch(() => undefined); // told through `failed`; each listen waiting for it rejects itself
  }

  /**
   * Listens on the socket `name` in the directory (its server added to `servers`); `onSocket` gets its one
   * connection. Resolves with the socket's path once it is listened on and 0600.
   */
  async listen(servers: Server[], name: string, onSocket: (s: Socket) => void): Promise<string> {
    const path = join(await this.#dir, name);
    await accept(servers, path, onSocket);
    return path;
  }

  /** The directory goes, on the thread pool (nothing listens in it any more). */
  remove(): void {
    background(
      this.#dir.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => undefined),
      "removing the spawner's socket directory",
    );
  }
}

async function makeDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "acp-threads-spawner-"));
  await chmod(dir, 0o700);
  return dir;
}

function accept(servers: Server[], path: string, onSocket: (s: Socket) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer({ allowHalfOpen: true, pauseOnConnect: false });
    servers.push(server);
    server.once("error", reject);
    server.once("connection", (sock) => {
      server.close(); // unlinks the socket file
      sock.on("error", () => {}); // EPIPE after the child died: its exit is reported instead
      onSocket(sock);
    });
    // a chmod that fails: the directory went with a dead spawner
    server.listen(path, () => void chmod(path, 0o600).then(resolve, reject));
  });
}
