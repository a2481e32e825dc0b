/**
 * The CLI's one flag parser: every command declares its flags as a typed table, `node:util` `parseArgs` splits
 * the words (`--name value`, `--name=value`, `-o value`, `-abc`, `--`), and this module checks them against the
 * table, so every command treats flags the same way:
 * - `-h` / `--help` print the command's help (generated from the table) on stdout and exit 0; `--help=x` is an error;
 * - a usage error names the flag (`unknown option '--bogus'`, `option '--timeout' needs a value`) and exits 2;
 * - a flag that needs a value never takes the next flag as it (`--timeout --pty`); write `--name=-x` for a value
 *   that starts with '-';
 * - numbers, enums, required flags and the count of arguments are checked before the command runs.
 *
 * Adding a command: write `src/cli/commands/<name>.ts` exporting `main = command(SPEC, run)` (see ./command.ts)
 * and add one line to COMMANDS in ./main.ts. SPEC is `{ name, synopsis, flags, args, notes }`:
 * ```ts
 * export const main = command(
 *   {
 *     name: "logs",
 *     synopsis: "ID [--follow] [--head N | --tail N]",
 *     args: { min: 1, max: 1, name: "ID" },
 *     flags: {
 *       follow: { type: "boolean", help: "keep printing until the run ends" },
 *       tail: { type: "number", integer: true, min: 0, arg: "N", help: "only the last N lines" },
 *     },
 *   },
 *   async ({ io, flags, args }) => { ... flags.tail is number | undefined, flags.follow is boolean ... },
 * );
 * ```
 * Adding a flag is one entry in `flags`: `string` (`required: true` makes it `string`), `list` (repeatable →
 * `string[]`), `boolean` (`negatable: true` adds `--no-x` and makes it `boolean | undefined`), `number` (`min`,
 * `above`, `integer`), `enum` (`values`, optional `default`). `short: "o"` adds `-o`; `hidden: true` keeps it out of
 * the help. Subcommands: `subcommands(...)` in ./command.ts. Errors thrown by a command map to exit codes in one
 * place, `exitCodeFor` in ./command.ts (AcpThreadsError "usage" → 2, "timeout" → 3, ...).
 */
import { parseArgs } from "node:util";
import { AcpThreadsError } from "../core/errors";
import { MAX_TIMER_MS } from "../core/util/guards";

interface FlagCommon {
  /** One line for the help. */
  help: string;
  short?: string;
  hidden?: boolean;
}
export interface StringFlag extends FlagCommon {
  type: "string";
  /** Placeholder in the help (`--cwd DIR`). */
  arg?: string;
  required?: boolean;
}
export interface ListFlag extends FlagCommon {
  type: "list";
  arg?: string;
}
export interface BooleanFlag extends FlagCommon {
  type: "boolean";
  negatable?: boolean;
}
export interface NumberFlag extends FlagCommon {
  type: "number";
  arg?: string;
  /** Smallest allowed value (inclusive). */
  min?: number;
  /** The value must be greater than this. */
  above?: number;
  /** Largest allowed value (inclusive), and what it is, for the message (`timerFlag`). */
  max?: number;
  maxIs?: string;
  integer?: boolean;
}

/**
 * The bound of a flag whose value becomes a timer's delay, counted in units of `unitMs` (1000: seconds): no Node
 * timer waits longer than MAX_TIMER_MS (about 24.8 days), so a longer value is refused rather than cut short.
 */
export const timerFlag = (unitMs: number): Pick<NumberFlag, "max" | "maxIs"> => ({
  max: MAX_TIMER_MS / unitMs,
  maxIs: "about 24.8 days, the longest a timer waits",
});
export interface EnumFlag extends FlagCommon {
  type: "enum";
  values: readonly string[];
  default?: string;
}
export type FlagDef = StringFlag | ListFlag | BooleanFlag | NumberFlag | EnumFlag;
export type FlagTable = Record<string, FlagDef>;

type ValueOf<D> = D extends { type: "string"; required: true }
  ? string
  : D extends { type: "string" }
    ? string | undefined
    : D extends { type: "list" }
      ? string[]
      : D extends { type: "boolean"; negatable: true }
        ? boolean | undefined
        : D extends { type: "boolean" }
          ? boolean
          : D extends { type: "number" }
            ? number | undefined
            : D extends { type: "enum"; values: readonly (infer V)[]; default: string }
              ? V
              : D extends { type: "enum"; values: readonly (infer V)[] }
                ? V | undefined
                : never;

/** The parsed values of a flag table, typed by it. */
export type FlagValues<T extends FlagTable> = { -readonly [K in keyof T]: ValueOf<T[K]> };

export interface CommandSpec<T extends FlagTable = FlagTable> {
  /** As typed: `ps`, `threads list`. */
  name: string;
  /** What follows `acp-threads <name>` in the usage line(s). */
  synopsis: string | readonly string[];
  flags: T;
  /** Positional arguments: none unless given. `rest`: the first argument and everything after it are positionals
   * (exec: `exec --cwd x codex --model y` gives `--model y` to codex). */
  args?: { min?: number; max?: number; name?: string; rest?: boolean };
  /** Free text after the options in the help. */
  notes?: string;
}

export type ParseResult<T extends FlagTable> = { help: true } | { help: false; flags: FlagValues<T>; args: string[] };

const HELP: BooleanFlag = { type: "boolean", short: "h", help: "show this help" };

const usage = (message: string) => new AcpThreadsError("usage", message);
const optionLike = (value: string) => value.length > 1 && value.startsWith("-");

/** Parses `argv` against the command's table; throws AcpThreadsError("usage") naming the offending flag. */
export function parseCommand<T extends FlagTable>(spec: CommandSpec<T>, argv: readonly string[]): ParseResult<T> {
  const table: FlagTable = { ...spec.flags, help: HELP };
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const [name, def] of Object.entries(table)) {
    options[name] = { type: def.type === "boolean" ? "boolean" : "string" };
    if (def.short) options[name].short = def.short;
  }
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  // Our tokens end at `--` or, for a `rest` command, at its first argument.
  const own: typeof tokens = [];
  const args: string[] = [];
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      args.push(...argv.slice(token.index + 1));
      break;
    }
    if (token.kind === "positional" && spec.args?.rest) {
      args.push(...argv.slice(token.index));
      break;
    }
    if (token.kind === "positional") args.push(token.value);
    else own.push(token);
  }
  const opts = own.filter((t) => t.kind === "option");
  if (opts.some((t) => t.name === "help" && t.value === undefined)) return { help: true };

  const values: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(spec.flags)) {
    if (def.type === "list") values[name] = [];
    else if (def.type === "enum") values[name] = def.default;
    else if (def.type === "boolean" && !def.negatable) values[name] = false;
  }
  for (const t of opts) {
    let name = t.name;
    let def: FlagDef | undefined = Object.hasOwn(table, name) ? table[name] : undefined;
    let negated = false;
    if (!def && t.rawName.startsWith("--no-")) {
      const base = table[name.slice(3)];
      if (base?.type === "boolean" && base.negatable) [name, def, negated] = [name.slice(3), base, true];
    }
    if (!def) throw usage(`unknown option '${t.rawName}'`);
    const flag = t.rawName;
    if (def.type === "boolean") {
      if (t.value !== undefined) throw usage(`option '${flag}' takes no value`);
      values[name] = !negated;
      continue;
    }
    if (t.value === undefined || (!t.inlineValue && optionLike(t.value))) {
      const known = t.value !== undefined && isFlagOf(table, t.value);
      const hint =
        t.value === undefined || known ? "" : ` (write --${name}=${t.value} for a value that starts with '-')`;
      throw usage(`option '${flag}' needs a value${hint}`);
    }
    values[name] = checkValue(`--${name}`, def, t.value, values[name]);
  }
  for (const [name, def] of Object.entries(spec.flags)) {
    if (def.type === "string" && def.required && values[name] === undefined) throw usage(`--${name} is required`);
  }
  const { min = 0, max = spec.args ? Infinity : 0, name: argName = "ARG" } = spec.args ?? {};
  if (args.length < min) throw usage(`missing argument: ${argName}`);
  if (args.length > max) throw usage(`unexpected argument '${args[max]}'`);
  return { help: false, flags: values as FlagValues<T>, args };
}

/** Whether `word` is one of the table's own flags (`--pty`, `--no-pty`, `-v`). */
function isFlagOf(table: FlagTable, word: string): boolean {
  const name = word.startsWith("--") ? word.slice(2).split("=")[0]! : undefined;
  if (name === undefined) return Object.values(table).some((d) => d.short === word[1]);
  return Object.hasOwn(table, name) || (name.startsWith("no-") && Object.hasOwn(table, name.slice(3)));
}

function checkValue(flag: string, def: Exclude<FlagDef, BooleanFlag>, raw: string, previous: unknown): unknown {
  switch (def.type) {
    case "string":
      return raw;
    case "list":
      return [...(previous as string[]), raw];
    case "enum":
      if (def.values.includes(raw)) return raw;
      throw usage(`${flag} must be one of ${def.values.join(", ")}; got '${raw}'`);
    case "number": {
      const n = raw.trim() === "" ? NaN : Number(raw);
      const what =
        def.integer && def.min === 0
          ? "a whole number"
          : def.integer
            ? "an integer"
            : def.above !== undefined
              ? `a number above ${def.above}`
              : def.min === 0
                ? "a non-negative number"
                : "a number";
      const ok =
        Number.isFinite(n) &&
        (!def.integer || Number.isInteger(n)) &&
        (def.min === undefined || n >= def.min) &&
        (def.above === undefined || n > def.above);
      if (!ok) throw usage(`${flag} needs ${what}, got '${raw}'`);
      if (def.max !== undefined && n > def.max)
        throw usage(`${flag} must be at most ${def.max}${def.maxIs ? ` (${def.maxIs})` : ""}, got '${raw}'`);
      return n;
    }
  }
}

/** The usage line(s) of a command. */
export function synopsisOf(spec: CommandSpec): string {
  const lines = typeof spec.synopsis === "string" ? [spec.synopsis] : spec.synopsis;
  return lines.map((l, i) => `${i === 0 ? "usage:" : "      "} acp-threads ${spec.name}${l ? ` ${l}` : ""}`).join("\n");
}

/** The help of a command, generated from its table. */
export function helpOf(spec: CommandSpec): string {
  const table: FlagTable = { ...spec.flags, help: HELP };
  const rows = Object.entries(table)
    .filter(([, def]) => !def.hidden)
    .map(([name, def]) => {
      const long = def.type === "boolean" && def.negatable ? `--[no-]${name}` : `--${name}`;
      const value =
        def.type === "boolean" ? "" : def.type === "enum" ? ` ${def.values.join("|")}` : ` ${def.arg ?? "VALUE"}`;
      const more =
        def.type === "enum" && def.default ? ` (default ${def.default})` : def.type === "list" ? " (repeatable)" : "";
      return [`${def.short ? `-${def.short}, ` : "    "}${long}${value}`, `${def.help}${more}`];
    });
  // a long left side (an enum's values) puts its description on the next line
  const width = Math.min(28, Math.max(...rows.map(([left]) => left.length)));
  const options = rows
    .map(([left, right]) =>
      left.length > width ? `  ${left}\n  ${"".padEnd(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`,
    )
    .join("\n");
  return `${synopsisOf(spec)}\n\noptions:\n${options}\n${spec.notes ? `\n${spec.notes.trimEnd()}\n` : ""}`;
}

/** The usual `--format text|json` flag. */
export const FORMAT = { type: "enum", values: ["text", "json"], default: "text", help: "output format" } as const;

/** `K=V` pairs from repeated `--env` flags. */
export function parseEnvPairs(pairs: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw usage(`--env expects KEY=VALUE, got '${pair}'`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}
