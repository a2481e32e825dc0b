/**
 * Noticing a host start at once (#35): watches the folder of the host's socket (door.ts `hostPlace`) and calls
 * `onChange` when an entry of the socket's name appears, goes or changes. The folder may not exist yet (no host ever
 * ran for this data home): the nearest folder above it that does is watched instead, for the next folder down
 * to appear, never above `top` (the data home; the temporary folder for a socket placed there). One watcher at a
 * time, asynchronous (fs.promises.watch: no sync call on the caller's thread), its events filtered by name: a busy
 * folder costs a name comparison per event. Where the platform cannot watch (or a folder went), it waits RETRY_MS
 * and looks again: the caller's slow poll is the safety net.
 */
import { stat, watch } from "node:fs/promises";
import { basename, dirname, relative, sep } from "node:path";
import { background } from "../util/unexpected";

export const RETRY_MS = 5_000;

export interface SocketWatch {
  close(): void;
}

/** The folders from `top` down to the socket's own (top first); just the socket's when it is not below `top`. */
function chainOf(socket: string, top: string): string[] {
  const dir = dirname(socket);
  const rel = relative(top, dir);
  if (!rel || rel.startsWith("..") || rel.startsWith(sep)) return [dir];
  const chain = [top];
  for (const part of rel.split(sep)) chain.push(`${chain[chain.length - 1]}${sep}${part}`);
  return chain;
}

export function watchSocket(socket: string, top: string, onChange: () => void, retryMs = RETRY_MS): SocketWatch {
  const ac = new AbortController();
  const chain = chainOf(socket, top);
  const name = basename(socket);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        ac.signal.removeEventListener("abort", done);
        resolve();
      };
      const t = setTimeout(done, ms);
      ac.signal.addEventListener("abort", done, { once: true });
    });
  const isDir = (path: string) =>
    stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
  const deepest = async (): Promise<number> => {
    for (let i = chain.length - 1; i >= 0; i--) if (await isDir(chain[i]!)) return i;
    return -1;
  };
  const loop = async () => {
    let first = true;
    while (!ac.signal.aborted) {
      const at = await deepest();
      if (at < 0) {
        await sleep(retryMs);
        continue;
      }
      const own = at === chain.length - 1;
      // a folder that appeared meanwhile: a socket made in it before this watch began is told, once the watch
      // below has started (fs.promises.watch starts its watcher on the first step of the loop)
      if (own && !first) setTimeout(() => ac.signal.aborted || onChange(), 0);
      first = false;
      const next = own ? undefined : basename(chain[at + 1]!);
      let down = false;
      // this folder's watch ends with the whole watch, or when the folder below is there
      const inner = new AbortController();
      const end = () => inner.abort();
      ac.signal.addEventListener("abort", end, { once: true });
      // the folder below made before this watch began (a host makes `host/<version>/` in one go: its creation is
      // not told here): watched instead once the watch has started
      if (next)
        setTimeout(() => {
          background(
            isDir(chain[at + 1]!).then((there) => {
              if (there) {
                down = true;
                end();
              }
            }),
            "watching for the thread host's socket",
          );
        }, 0);
      try {
        for await (const e of watch(chain[at]!, { signal: inner.signal })) {
          if (own && e.filename === name) onChange();
          if (next && e.filename === next) {
            down = true; // watch the folder that appeared instead
            break;
          }
        }
      } catch {
        // aborted, the folder went, or the platform refused: look again (in a while)
      }
      ac.signal.removeEventListener("abort", end);
      if (!down) await sleep(retryMs);
    }
  };
  background(loop(), "watching for the thread host's socket");
  return { close: () => ac.abort() };
}
