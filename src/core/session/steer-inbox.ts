/**
 * Steering a thread another process runs (`acp-threads run --thread ID --steer TEXT`): a request file in the data
 * home, `steer/<threadId>/<id>.req.json` (written whole: tmp → fsync → rename, mode 0600), that the process
 * holding the thread (`serveSteerInbox`, polled while it runs) takes, steers into its running turn
 * (ThreadSession.steer) and answers with `<id>.res.json`. The request holds the message text only. The serving side
 * runs in the extension host for as long as a session lives: its polls and answers use no synchronous file call.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { AcpThreadsError, errorMessage } from "../errors";
import type { Disposable } from "../lifecycle";
import { homeLayout } from "../platform/data-home";
import { writeFileAtomic, writeFileAtomicAsync } from "../store/atomic-write";
import { liveWriter } from "../store/file-lock";
import type { ThreadStore } from "../store/thread-store";
import type { PromptContent } from "../thread/prompt-text";
import { background } from "../util/unexpected";

const POLL_MS = 200;
interface SteerAnswer {
  outcome?: string;
  error?: string;
}

const inboxOf = (store: ThreadStore, threadId: string) => join(homeLayout(store.home).steerDir, threadId);

/** Serves steering requests for `threadId` until disposed; `steer` is the thread session's. */
export function serveSteerInbox(
  store: ThreadStore,
  threadId: string,
  steer: (prompt: PromptContent) => Promise<string>,
): Disposable {
  const dir = inboxOf(store, threadId);
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      let names: string[] = [];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith(".req.json"));
      } catch {
        return; // no inbox yet
      }
      for (const name of names) {
        const path = join(dir, name);
        let answer: SteerAnswer;
        try {
          const req = JSON.parse(await readFile(path, "utf8")) as { text?: unknown };
          await rm(path, { force: true });
          if (typeof req.text !== "string" || !req.text.trim()) throw new Error("empty steering request");
          answer = { outcome: await steer(req.text) };
        } catch (err) {
          await rm(path, { force: true });
          answer = { error: errorMessage(err) };
        }
        const res = join(dir, name.replace(/\.req\.json$/, ".res.json"));
        await writeFileAtomicAsync(res, JSON.stringify(answer), { mode: 0o600 });
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => background(tick(), "serving a steering request"), POLL_MS);
  timer.unref();
  return { dispose: () => clearInterval(timer) };
}

/** Hands `text` to the process running `threadId` and waits for its answer (at most `timeoutMs`). */
export async function requestSteer(store: ThreadStore, threadId: string, text: string, timeoutMs = 30_000) {
  if (!liveWriter(store.pathFor(threadId)))
    throw new AcpThreadsError(
      "usage",
      `no process is running thread ${threadId}: nothing to steer (send it as a prompt: acp-threads run --thread ${threadId} TEXT)`,
    );
  const dir = inboxOf(store, threadId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const req = join(dir, `${id}.req.json`);
  const res = join(dir, `${id}.res.json`);
  writeFileAtomic(req, JSON.stringify({ text }), { mode: 0o600 });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, POLL_MS / 2));
    let answer: SteerAnswer;
    try {
      answer = JSON.parse(readFileSync(res, "utf8")) as SteerAnswer;
    } catch {
      continue;
    }
    rmSync(res, { force: true });
    if (answer.error) throw new AcpThreadsError("protocol", answer.error);
    return assertSteered(threadId, answer.outcome);
  }
  rmSync(req, { force: true });
  throw new AcpThreadsError("timeout", `the process running thread ${threadId} did not take the message`);
}

/** A steer's outcome as the CLI reports it: anything but `injected` means nothing was sent (a usage error). */
export function assertSteered(threadId: string, outcome: string | undefined): void {
  if (outcome === "injected") return;
  throw new AcpThreadsError(
    "usage",
    `thread ${threadId} has no turn running: nothing was sent (send it as a prompt: acp-threads run --thread ${threadId} TEXT)`,
  );
}
