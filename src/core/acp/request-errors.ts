/** Maps engine errors to JSON-RPC errors the agent can read. */
import { RequestError } from "@agentclientprotocol/sdk";
import { AcpThreadsError, errorMessage } from "../errors";

export function toRequestError(err: unknown): RequestError {
  if (err instanceof RequestError) return err;
  if (err instanceof AcpThreadsError) {
    if (err.code === "not_found") return new RequestError(-32002, err.message, err.details);
    if (err.code === "path_outside_workspace" || err.code === "usage")
      return RequestError.invalidParams(err.details, err.message);
    // -32000-range server error: permission denials are not malformed requests.
    if (err.code === "permission_denied") return new RequestError(-32001, err.message, err.details);
  }
  return RequestError.internalError(undefined, errorMessage(err));
}

/** Runs a handler body and rethrows any failure as a `RequestError`. */
export async function asRequest<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw toRequestError(err);
  }
}
