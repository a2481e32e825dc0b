/** Shared bits of the `threads` subcommands: the store for this home, flag parsing and output helpers. */
import { AcpThreadsError } from "../../core/errors";
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { oneOf, parseFlags, type FlagSpec, type ParsedFlags } from "../flags";
import type { CliIO } from "../io";

export interface SubContext {
  io: CliIO;
  store: ThreadStore;
  flags: ParsedFlags["values"];
  args: string[];
  json: boolean;
}

export type Subcommand = (ctx: SubContext) => Promise<number> | number;

export function openStore(io: CliIO): ThreadStore {
  return new ThreadStore(resolveHome(io.env));
}

export function parseSub(io: CliIO, argv: string[], specs: Record<string, FlagSpec>): Omit<SubContext, "store"> {
  const { values, positionals } = parseFlags(argv, { ...specs, format: { type: "string" } });
  const json = oneOf("format", values.format, ["text", "json"] as const, "text") === "json";
  return { io, flags: values, args: positionals, json };
}

export function requireArgs(ctx: SubContext, n: number, usage: string): void {
  if (ctx.args.length < n) throw new AcpThreadsError("usage", `missing argument\nusage: acp-threads threads ${usage}`);
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
