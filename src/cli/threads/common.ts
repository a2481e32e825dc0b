/** Shared bits of the `threads` subcommands: the store for this home and output helpers. */
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import type { CliIO } from "../io";

export interface SubContext {
  io: CliIO;
  store: ThreadStore;
  flags: Record<string, unknown>;
  args: string[];
  json: boolean;
}

export type Subcommand = (ctx: SubContext) => Promise<number> | number;

export function openStore(io: CliIO): ThreadStore {
  return new ThreadStore(resolveHome(io.env));
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

/** Enough of a time-ordered id to tell threads apart: the millisecond timestamp plus the counter. */
export function shortId(id: string): string {
  return id.slice(0, 18);
}

/** Local `HH:MM` of an ISO time. */
export function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}
