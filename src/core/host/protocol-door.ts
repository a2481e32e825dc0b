/**
 * The thread host's door on the wire (protocol.ts): how a connection is let in. Its first request is `door` (the
 * client's nonce), answered with the host's nonce and the host's proof that it holds the key (store/door-key.ts
 * `doorProof`); its second is `hello` with the client's proof. The key itself never crosses the socket.
 */
import type { ServeOffer } from "./protocol-serve";

/**
 * `watching`: a client that only looks on (an editor window listing what the host holds) does not keep an idle
 * host alive, nor restart its idle time by coming and going; one that runs, attaches or asks does. `serves`: what it
 * serves the host's agents (a later hello replaces it). `proof`: the client's proof that it holds the host's key,
 * required in the hello after `door`; later hellos only change the offer.
 */
export interface HelloRequest {
  t: "hello";
  id: number;
  protocol: number;
  client: string;
  proof?: string;
  watching?: boolean;
  serves?: ServeOffer;
}

/** A connection's first request: the client's nonce (hex). */
export interface DoorRequest {
  t: "door";
  id: number;
  nonce: string;
}

/** The host's answer to `door`: its own nonce, and its proof of the key for the two. */
export interface DoorReply {
  t: "door";
  id: number;
  nonce: string;
  proof: string;
}
