/**
 * The CLI as a client of the thread host (src/core/host): connects to the host of this version for the data home,
 * starting it when asked (`run --detach`), with this CLI script as its program (`acp-threads host serve`).
 */
import { connectHost, type HostConnection } from "../core/host/client";
import { resolveHome } from "../core/store/paths";
import type { CliIO } from "./io";

export function hostFor(io: CliIO, command: string, start: boolean): Promise<HostConnection | undefined> {
  return connectHost({
    home: resolveHome(io.env),
    client: `acp-threads ${command} (pid ${process.pid})`,
    ...(start ? { start: { script: process.argv[1]!, env: io.env } } : {}),
  });
}
