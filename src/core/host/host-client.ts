/** What the thread host (server.ts) knows of one connection, and whether its first request lets it in. */
import { keyMatches } from "../store/door-key";
import type { HostedThread } from "./hosted-thread";
import type { HostRequest } from "./protocol";
import type { ServeOffer } from "./protocol-serve";

export interface Client {
  name: string;
  threads: Set<HostedThread>;
  /** It keeps the host from leaving when idle: said hello, not as a watching-only client. */
  counts: boolean;
  /** Its folders, as its last `hello` said them (a run's `roots` must be inside them). */
  offer?: ServeOffer;
  /** Its first hello gave the host's key (store/door-key.ts): until then it is answered nothing else. */
  keyed: boolean;
}

/** Whether a connection's first request is a hello with the host's `key` (none yet: nobody is let in). */
export const admits = (key: string | undefined, req: HostRequest): boolean =>
  req.t === "hello" && key !== undefined && keyMatches(key, req.key);
