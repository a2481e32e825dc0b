/**
 * The engine's requests on the host's socket (#35 item 7): a client that has only the socket (another window, a
 * remote client later) makes the same requests as a front end calling the engine in process (core/engine/requests.ts),
 * answered by the same dispatcher (core/engine/serve.ts). An engine error comes back as an `error` reply whose
 * `engine` field keeps its code and details, so the client throws the same `AcpThreadsError`.
 */
import type { EngineOp, EngineProgress, EngineReplies, EngineRequest } from "../engine/requests";
import type { ErrorInfo } from "../errors";

/**
 * `engine`: `progress`: the client wants the request's progress, pushed as `engine_progress` before the reply.
 * `engine_cancel`: cancels the client's own engine request numbered `call` (its reply is then an `interrupted`
 * error, or what it answers when it was past its last step); answered `ok` whatever it found. Another client's
 * request of that number is not touched: requests are numbered per connection.
 */
export type EngineHostRequest =
  | { t: "engine"; id: number; req: EngineRequest; progress?: boolean }
  | { t: "engine_cancel"; id: number; call: number };

export type EngineHostReply = { t: "engine"; id: number; reply: EngineReplies[EngineOp] };

/** Progress of the engine request numbered `call` (not `id`: a push is not a reply). */
export type EngineHostPush = { t: "engine_progress"; call: number; progress: EngineProgress };

/** What an `error` reply carries of an engine error besides its message: an engine request's, a `start_failed` run's start error. */
export type EngineErrorInfo = ErrorInfo;
