/**
 * A small flag parser for the exec commands: `--name value`, `--name=value`, boolean `--flag` / `--no-flag`.
 * Parsing stops at `--` or, with `stopAtPositional`, at the first word that is not a flag (the command to run),
 * so `acp-threads exec codex --model x "..."` passes `--model x` to codex.
 */
import { AcpThreadsError } from "../../core/errors";
import type { CliIO } from "../io";

export interface FlagSpec {
  [name: string]: "boolean" | "string";
}

export interface ParsedFlags {
  flags: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseFlags(argv: readonly string[], spec: FlagSpec, stopAtPositional = false): ParsedFlags {
  const flags: ParsedFlags["flags"] = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      if (stopAtPositional) {
        positionals.push(...argv.slice(i));
        break;
      }
      positionals.push(word);
      continue;
    }
    const body = word.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const rawName = eq === -1 ? body : body.slice(0, eq);
    const negated = rawName.startsWith("no-") && spec[rawName.slice(3)] === "boolean";
    const name = negated ? rawName.slice(3) : rawName;
    const kind = spec[name];
    if (!kind) throw new AcpThreadsError("usage", `unknown option '${word}'`);
    if (kind === "boolean") {
      if (eq !== -1) throw new AcpThreadsError("usage", `option '--${name}' takes no value`);
      flags[name] = !negated;
      continue;
    }
    const value = eq !== -1 ? body.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new AcpThreadsError("usage", `option '--${name}' needs a value`);
    flags[name] = value;
  }
  return { flags, positionals };
}

/** A non-negative number flag (`--timeout 30`), or `undefined` when absent. */
export function numberFlag(flags: ParsedFlags["flags"], name: string): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== "string" || !Number.isFinite(n) || n < 0) {
    throw new AcpThreadsError("usage", `option '--${name}' needs a non-negative number, got '${String(raw)}'`);
  }
  return n;
}

/** `--format text|json`. */
export function formatFlag(flags: ParsedFlags["flags"]): "text" | "json" {
  const format = flags.format ?? "text";
  if (format !== "text" && format !== "json") throw new AcpThreadsError("usage", `--format must be text or json`);
  return format;
}

/** Parses a command's arguments with `--help` added; on `--help` prints `usage` and returns `undefined`. */
export function parseOrHelp(
  io: Pick<CliIO, "argv" | "stdout">,
  spec: FlagSpec,
  usage: string,
  stopAtPositional = false,
): ParsedFlags | undefined {
  const parsed = parseFlags(io.argv, { ...spec, help: "boolean" }, stopAtPositional);
  if (!parsed.flags.help) return parsed;
  io.stdout.write(usage);
  return undefined;
}
