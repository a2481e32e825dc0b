/** What the thread host (server.ts) knows of one connection, and whether its first request lets it in. */
import { doorNonce, doorProof, keyMatches } from "../store/door-key";
import type { HostedThread } from "./hosted-thread";
import type { HostReply, HostRequest } from "./protocol";
import type { ServeOffer } from "./protocol-serve";

export interface Client {
  name: string;
  threads: Set<HostedThread>;
  /** It keeps the host from leaving when idle: said hello, not as a watching-only client. */
  counts: boolean;
  /** Its folders, as its last `hello` said them (a run's `roots` must be inside them). */
  offer?: ServeOffer;
  /** Its hello proved it holds the host's key (store/door-key.ts): until then it is answered nothing else. */
  keyed: boolean;
  /** The nonces of its `door` request and the host's answer, once it asked. */
  door?: { client: string; host: string };
}

const NONCE = /^[0-9a-f]{32,128}$/;

/**
 * The door of a connection not yet let in (`key` undefined: nobody is): its first request must be `door` (answered
 * with the host's nonce and proof), its second a hello with the client's proof, which lets it in (undefined is
 * returned). Anything else is the one `no_key` refusal; the server then lets the connection go.
 */
export function admit(key: string | undefined, client: Client, req: HostRequest): HostReply | undefined {
  if (key !== undefined && req.t === "door" && !client.door && typeof req.nonce === "string" && NONCE.test(req.nonce)) {
    client.door = { client: req.nonce, host: doorNonce() };
    return {
      t: "door",
      id: req.id,
      nonce: client.door.host,
      proof: doorProof(key, "host", req.nonce, client.door.host),
    };
  }
  const { door } = client;
  client.keyed =
    key !== undefined &&
    req.t === "hello" &&
    door !== undefined &&
    keyMatches(doorProof(key, "client", door.client, door.host), req.proof);
  if (client.keyed) return undefined;
  const message = "the host answers only a client that proves it holds its key (a door request, then a hello)";
  return { t: "error", id: req.id, code: "no_key", message };
}
