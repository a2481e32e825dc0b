/**
 * The host's side of the engine requests (protocol-engine.ts): served by the engine's own dispatcher over the
 * host's data home (core/engine/local.ts), as in process. Progress goes to the asking client only, when it asked;
 * an engine error goes back with its code, so the client throws the same error a local call would. A client may
 * cancel a request of its own (`engine_cancel`), never another client's: requests are kept per connection. The long
 * ones (a recall import, a compaction, a recall read that syncs the index first: host-worker.ts) run in the host's
 * engine process, off the sessions' thread.
 */
import { localEngine } from "../engine/local";
import type { Engine } from "../engine/requests";
import { errorInfo, errorMessage } from "../errors";
import type { Logger } from "../log";
import type { EngineErrorInfo, EngineHostPush, EngineHostRequest } from "./protocol-engine";
import { HostWorker, engineProcessScript, servedByWorker } from "./host-worker";
import type { HostReply } from "./protocol";

export class HostEngine {
  #engine: Engine | undefined;
  /** The engine requests in flight, per connection (its `owner`), by the number the client gave them. */
  readonly #running = new WeakMap<object, Map<number, AbortController>>();

  readonly #worker: HostWorker;

  /** `engine`: the engine process's scripts (default: beside the host's bundle, host-worker.ts). */
  constructor(private readonly o: { home: string; logger: Logger; engine?: { process?: string; worker?: string } }) {
    const { process: script = engineProcessScript(), worker } = o.engine ?? {};
    this.#worker = new HostWorker({ home: o.home, script, ...(worker ? { worker } : {}) });
  }

  async request(req: EngineHostRequest, owner: object, push: (msg: EngineHostPush) => void): Promise<HostReply> {
    if (req.t === "engine_cancel") {
      this.#running.get(owner)?.get(req.call)?.abort();
      return { t: "ok", id: req.id };
    }
    const { id } = req;
    const engine = servedByWorker(req.req)
      ? this.#worker.engine()
      : (this.#engine ??= localEngine({ home: this.o.home, logger: this.o.logger }));
    if (typeof engine === "string") return { t: "error", id, message: engine };
    const mine = this.#running.get(owner) ?? new Map<number, AbortController>();
    this.#running.set(owner, mine);
    const abort = new AbortController();
    mine.set(id, abort);
    try {
      const reply = await engine.call(req.req, {
        signal: abort.signal,
        ...(req.progress === true
          ? { onProgress: (progress) => push({ t: "engine_progress", call: id, progress }) }
          : {}),
      });
      return { t: "engine", id, reply };
    } catch (err) {
      return { t: "error", id, message: errorMessage(err), ...engineError(err) };
    } finally {
      if (mine.get(id) === abort) mine.delete(id);
    }
  }

  /** A connection closed: its requests in flight are cancelled (nobody waits for their replies). */
  closed(owner: object): void {
    for (const abort of this.#running.get(owner)?.values() ?? []) abort.abort();
    this.#running.delete(owner);
  }

  /** The host leaves: its engine process's requests are cancelled and the process ends. */
  close(): Promise<void> {
    return this.#worker.close();
  }
}

/** The engine error's code and details (as JSON: nothing else crosses the socket); none for another error. */
function engineError(err: unknown): { engine?: EngineErrorInfo } {
  const engine = errorInfo(err);
  return engine ? { engine } : {};
}
