/** A small flag parser for the CLI: `--name value`, `--name=value`, booleans, repeatable flags, `--` ends flags. */
import { AcpThreadsError } from "../core/errors";

export interface FlagSpec {
  type: "string" | "boolean";
  /** Collect every occurrence into an array. */
  multiple?: boolean;
  short?: string;
}

export interface ParsedFlags {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parseFlags(argv: readonly string[], specs: Record<string, FlagSpec>): ParsedFlags {
  const values: ParsedFlags["values"] = {};
  const positionals: string[] = [];
  const byShort = new Map(Object.entries(specs).flatMap(([name, s]) => (s.short ? [[s.short, name] as const] : [])));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const long = arg.startsWith("--")
      ? arg.slice(2)
      : arg.length === 2 && arg[0] === "-"
        ? byShort.get(arg[1])
        : undefined;
    if (long === undefined) {
      if (arg.startsWith("-") && arg !== "-") throw new AcpThreadsError("usage", `unknown option '${arg}'`);
      positionals.push(arg);
      continue;
    }
    const eq = long.indexOf("=");
    const name = eq === -1 ? long : long.slice(0, eq);
    const spec = specs[name];
    if (!spec) throw new AcpThreadsError("usage", `unknown option '--${name}'`);
    let value: string | boolean;
    if (spec.type === "boolean") {
      if (eq !== -1) throw new AcpThreadsError("usage", `option '--${name}' takes no value`);
      value = true;
    } else if (eq !== -1) {
      value = long.slice(eq + 1);
    } else {
      if (i + 1 >= argv.length) throw new AcpThreadsError("usage", `option '--${name}' needs a value`);
      value = argv[++i];
    }
    if (spec.multiple) values[name] = [...((values[name] as string[] | undefined) ?? []), value as string];
    else values[name] = value;
  }
  return { values, positionals };
}

/** `K=V` pairs from repeated `--env` flags. */
export function parseEnvPairs(pairs: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new AcpThreadsError("usage", `--env expects KEY=VALUE, got '${pair}'`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** One of `allowed`, or a usage error naming them. */
export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new AcpThreadsError("usage", `--${name} must be one of ${allowed.join(", ")}; got '${String(value)}'`);
}
