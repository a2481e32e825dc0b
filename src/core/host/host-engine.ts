/**
 * The host's side of the engine requests (protocol-engine.ts): served by the engine's own dispatcher over the
 * host's data home (core/engine/local.ts), as in process. Progress goes to the asking client only, when it asked;
 * an engine error goes back with its code, so the client throws the same error a local call would.
 */
import { localEngine } from "../engine/local";
import type { Engine } from "../engine/requests";
import { AcpThreadsError, errorMessage } from "../errors";
import type { Logger } from "../log";
import type { EngineErrorInfo, EngineHostPush, EngineHostRequest } from "./protocol-engine";
import type { HostReply } from "./protocol";

export class HostEngine {
  #engine: Engine | undefined;

  constructor(private readonly o: { home: string; logger: Logger }) {}

  async request(req: EngineHostRequest, push: (msg: EngineHostPush) => void): Promise<HostReply> {
    this.#engine ??= localEngine({ home: this.o.home, logger: this.o.logger });
    const { id } = req;
    try {
      const reply = await this.#engine.call(req.req, {
        ...(req.progress === true
          ? { onProgress: (progress) => push({ t: "engine_progress", call: id, progress }) }
          : {}),
      });
      return { t: "engine", id, reply };
    } catch (err) {
      return { t: "error", id, message: errorMessage(err), ...engineError(err) };
    }
  }
}

/** The engine error's code and details (as JSON: nothing else crosses the socket); none for another error. */
function engineError(err: unknown): { engine?: EngineErrorInfo } {
  if (!(err instanceof AcpThreadsError)) return {};
  let details: Record<string, unknown> | undefined;
  try {
    details = err.details && (JSON.parse(JSON.stringify(err.details)) as Record<string, unknown>);
  } catch {
    details = undefined; // not JSON: the code and message still go
  }
  return { engine: { code: err.code, ...(details ? { details } : {}) } };
}
