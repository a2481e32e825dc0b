/** A tiny flag parser for the recall commands: `--name value`, `--name=value`, boolean switches, positionals. */

export type FlagKind = "bool" | "string" | "number";

export interface Parsed {
  flags: Record<string, string | number | boolean>;
  positional: string[];
}

export class UsageError extends Error {}

export function parseFlags(argv: string[], spec: Record<string, FlagKind>): Parsed {
  const flags: Parsed["flags"] = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "--") {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === "bool") {
      flags[name] = eq < 0 ? true : arg.slice(eq + 1) !== "false";
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === "number") {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} needs a non-negative number, got '${value}'`);
      flags[name] = n;
    } else flags[name] = value;
  }
  return { flags, positional };
}

export const num = (p: Parsed, name: string): number | undefined =>
  typeof p.flags[name] === "number" ? (p.flags[name] as number) : undefined;
export const text = (p: Parsed, name: string): string | undefined =>
  typeof p.flags[name] === "string" ? (p.flags[name] as string) : undefined;
export const bool = (p: Parsed, name: string): boolean => p.flags[name] === true;
