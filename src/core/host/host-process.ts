/**
 * The thread host's side of its engine process (engine-process.worker.ts): an `Engine` whose calls go to a child
 * process, forked on first use and ended `idleMs` after its last call (its memory goes with it). A call's signal
 * cancels it there; progress comes back per call; a process that dies fails its calls in flight (with why) and the
 * next call forks another. Only plain data crosses (the IPC channel's JSON).
 */
import { fork, type ChildProcess } from "node:child_process";
import { AcpThreadsError } from "../errors";
import { replyError, type EngineWorkerReply } from "../engine/worker-protocol";
import { background } from "../util/unexpected";
import type { Engine, EngineCallOptions, EngineProgress, EngineReplies, EngineRequest } from "../engine/requests";

export type EngineProcessCall =
  { t: "call"; id: number; req: EngineRequest; progress: boolean } | { t: "cancel"; id: number };

/** The engine worker's replies, relayed as they are. */
export type EngineProcessReply = EngineWorkerReply;

export interface ProcessEngine extends Engine {
  /** Cancels the calls in flight and ends the process (it closes its index first). */
  close(): Promise<void>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?(p: EngineProgress): void;
  /** The process it was sent to. */
  owner: ChildProcess;
}

/** `script`: engine-process-worker.js; `worker`: the engine worker it runs (default: beside it); `home`. */
export function processEngine(o: { script: string; worker?: string; home: string; idleMs: number }): ProcessEngine {
  let child: ChildProcess | undefined;
  let idle: NodeJS.Timeout | undefined;
  let next = 1;
  let closed = false;
  const pending = new Map<number, Pending>();

  const start = (): ChildProcess => {
    const c = fork(o.script, [o.home, ...(o.worker ? [o.worker] : [])], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    c.on("message", (m: EngineProcessReply) => {
      const p = pending.get(m.id);
      if (!p) return;
      if (m.t === "progress") return p.onProgress?.(m.progress);
      pending.delete(m.id);
      if (m.t === "reply") p.resolve(m.reply);
      else p.reject(replyError(m));
    });
    const gone = (why: string) => {
      if (child === c) child = undefined;
      for (const [id, p] of pending) {
        if (p.owner !== c) continue;
        pending.delete(id);
        p.reject(new Error(why));
      }
    };
    c.on("error", (err) => gone(`the engine process failed: ${err.message}`));
    c.on("exit", (code, signal) => gone(`the engine process stopped (${signal ?? `exit code ${code}`})`));
    return c;
  };

  const stop = (c: ChildProcess | undefined): Promise<void> => {
    if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((r) => c.once("exit", () => r()));
    if (c.connected) c.disconnect();
    const late = setTimeout(() => c.kill("SIGKILL"), 5000);
    return exited.finally(() => clearTimeout(late));
  };

  const call = (req: EngineRequest, opts: EngineCallOptions = {}): Promise<unknown> => {
    if (opts.signal?.aborted)
      return Promise.reject(new AcpThreadsError("interrupted", "the engine request was cancelled before it started"));
    if (closed) return Promise.reject(new AcpThreadsError("interrupted", "the engine process is closed"));
    clearTimeout(idle);
    const c = (child ??= start());
    const id = next++;
    const cancel = () => c.connected && c.send({ t: "cancel", id } satisfies EngineProcessCall);
    opts.signal?.addEventListener("abort", cancel, { once: true });
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject, onProgress: opts.onProgress, owner: c });
      c.send({ t: "call", id, req, progress: opts.onProgress !== undefined } satisfies EngineProcessCall);
    }).finally(() => {
      opts.signal?.removeEventListener("abort", cancel);
      if (pending.size === 0 && child === c) {
        idle = setTimeout(() => {
          if (child === c) child = undefined;
          background(stop(c), "stopping the idle engine process");
        }, o.idleMs);
        idle.unref();
      }
    });
  };

  return {
    call: <R extends EngineRequest>(req: R, opts?: EngineCallOptions) =>
      call(req, opts) as Promise<EngineReplies[R["op"]]>,
    close: async () => {
      closed = true;
      clearTimeout(idle);
      const c = child;
      child = undefined;
      await stop(c);
    },
  };
}
