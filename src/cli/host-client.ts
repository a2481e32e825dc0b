/**
 * The CLI as a client of the thread host (src/core/host): connects to the host of this version for the data home,
 * starting it when asked (`run --detach`), with this CLI script as its program (`acp-threads host serve`).
 */
import { errorMessage } from "../core/errors";
import { connectHost, type HostConnection } from "../core/host/client";
import { hostPlace, type HostPlace } from "../core/host/door";
import { otherHosts, VERSION_NAME, type OtherHost } from "../core/host/others";
import type { HostMetaPatch } from "../core/host/protocol";
import type { ServeOffer } from "../core/host/protocol-serve";
import { resolveHome } from "../core/store/paths";
import { VERSION } from "../core/version";
import { AcpThreadsError } from "../core/errors";
import { EXIT, type CliIO } from "./io";

/**
 * For tests only: `ACP_THREADS_TEST_HOST_VERSION` makes this CLI a client (and `host serve` a host) of another
 * version, as after an extension update (test/unit/cli/commands/host-upgrade.test.ts). Not a user setting.
 */
export function hostPlaceFor(io: CliIO): HostPlace {
  const v = io.env.ACP_THREADS_TEST_HOST_VERSION;
  return hostPlace(resolveHome(io.env), v && VERSION_NAME.test(v) ? v : VERSION);
}

/** `serves`: the folders this CLI offers (its exec run's: the host takes runs in the client's folders only). */
export function hostFor(
  io: CliIO,
  command: string,
  start: boolean,
  serves?: ServeOffer,
): Promise<HostConnection | undefined> {
  return connectHost({
    home: resolveHome(io.env),
    place: hostPlaceFor(io),
    client: clientName(command),
    ...(serves ? { serves } : {}),
    ...(start ? { start: { script: process.argv[1]!, env: io.env } } : {}),
  });
}

/**
 * A one-shot request command (`answer`, `retry`): `fn` on a connection to the running host (none: exit 4, nothing
 * started); the host's refusal is printed as `acp-threads COMMAND: …` (exit 1). The connection is closed after.
 */
export async function onHost(
  io: CliIO,
  command: string,
  fn: (conn: HostConnection) => Promise<number>,
): Promise<number> {
  const conn = await hostFor(io, command, false);
  if (!conn) {
    io.stderr.write(`acp-threads ${command}: no thread host runs for this data home\n`);
    return EXIT.noSession;
  }
  try {
    return await fn(conn);
  } catch (err) {
    if (err instanceof AcpThreadsError && err.code === "protocol") {
      io.stderr.write(`acp-threads ${command}: ${err.message}\n`);
      return EXIT.error;
    }
    throw err;
  } finally {
    conn.close();
  }
}

/**
 * Patches a thread through a running host that holds it (`patch`: written through its run's handle): its title, or a
 * fork / handoff it lists; false when no host runs or it does not hold the thread. The host's refusal rejects.
 */
async function patchInHost(io: CliIO, command: string, threadId: string, patch: HostMetaPatch): Promise<boolean> {
  const conn = await hostFor(io, command, false).catch(() => undefined);
  if (!conn) return false;
  try {
    const r = await conn.request({ t: "status" });
    if (r.t !== "status" || !r.status.sessions.some((s) => s.threadId === threadId && s.state !== "ended"))
      return false;
    await conn.request({ t: "patch", threadId, patch });
    return true;
  } finally {
    conn.close();
  }
}

/** Renames a thread a running host holds (patchInHost). */
export const renameInHost = (io: CliIO, threadId: string, title: string): Promise<boolean> =>
  patchInHost(io, "threads rename", threadId, { title: title.trim() || null });

/**
 * A fork / handoff the store could not list in its source (`unlinked`: why; another process holds the source): the
 * host lists it when its run holds the source. Resolves with why the source still does not list it (undefined: it
 * does).
 */
export async function linkInHost(
  io: CliIO,
  command: string,
  sourceId: string,
  links: Pick<HostMetaPatch, "forks" | "handedOffTo">,
  unlinked: string | undefined,
): Promise<string | undefined> {
  if (unlinked === undefined) return undefined;
  return patchInHost(io, command, sourceId, links).then(
    (listed) => (listed ? undefined : unlinked),
    (err: unknown) => errorMessage(err),
  );
}

const clientName = (command: string) => `acp-threads ${command} (pid ${process.pid})`;

/** The hosts of other versions still running for this data home (an update left the old one finishing). */
export function otherHostsFor(io: CliIO, command: string): Promise<OtherHost[]> {
  return otherHosts(resolveHome(io.env), hostPlaceFor(io).version, clientName(command)).catch(() => []);
}
