/**
 * A CLI command = a flag table (see ./flags.ts) + a function of the typed values. `command()` parses, prints the
 * help, runs, and maps any error to the exit code in ONE place (`exitCodeFor`), so every command reports the same
 * way: `acp-threads <name>: <message>` on stderr, plus the usage line and a pointer to `--help` for usage errors.
 */
import { AcpThreadsError, errorMessage } from "../core/errors";
import { helpOf, parseCommand, synopsisOf, type CommandSpec, type FlagTable, type FlagValues } from "./flags";
import { EXIT, type CliIO, type CommandMain } from "./io";
import { agentText } from "./terminal-text";

export interface CommandContext<T extends FlagTable> {
  io: CliIO;
  flags: FlagValues<T>;
  args: string[];
}

export interface Command extends CommandMain {
  spec: CommandSpec;
  /** One line for a list of commands. */
  summary?: string;
}

/** The exit code for an error a command threw. */
export function exitCodeFor(err: unknown): number {
  if (!(err instanceof AcpThreadsError)) return EXIT.error;
  switch (err.code) {
    case "usage":
      return EXIT.usage;
    case "timeout":
      return EXIT.timeout;
    case "permission_denied":
      return EXIT.permissionDenied;
    case "locked":
      return EXIT.locked;
    case "interrupted":
      return EXIT.interrupted;
    default:
      return EXIT.error;
  }
}

/** Prints the error the user can act on (with the usage line for a usage error) and returns its exit code. */
export function reportError(io: CliIO, spec: Pick<CommandSpec, "name" | "synopsis">, err: unknown): number {
  // an error may carry an agent's words (its option ids, its error's message): printed inert, as its other text is
  io.stderr.write(`acp-threads ${spec.name}: ${agentText(errorMessage(err), "")}\n`);
  const code = exitCodeFor(err);
  if (code === EXIT.usage) {
    io.stderr.write(`${synopsisOf(spec as CommandSpec)}\nRun 'acp-threads ${spec.name} --help' for the options.\n`);
  }
  return code;
}

export function command<const T extends FlagTable>(
  spec: CommandSpec<T>,
  run: (ctx: CommandContext<T>) => Promise<number> | number,
  summary?: string,
): Command {
  const main = async (io: CliIO): Promise<number> => {
    try {
      const parsed = parseCommand(spec, io.argv);
      if (parsed.help) {
        io.stdout.write(helpOf(spec));
        return EXIT.ok;
      }
      return await run({ io, flags: parsed.flags, args: parsed.args });
    } catch (err) {
      return reportError(io, spec, err);
    }
  };
  return Object.assign(main, { spec: spec as CommandSpec, summary });
}

/**
 * A command made of subcommands (`threads list`, `recall sync`): the first word picks one. Without a known first
 * word, `fallback` runs with every word (recall's query), else it is a usage error. `-h`, `--help`, `help` and no
 * word at all print the list (exit 0, or 2 when nothing was given and there is no fallback).
 */
export function subcommands(opts: {
  name: string;
  synopsis: string;
  subs: Record<string, Command>;
  /** Names that run the same subcommand (`ls` → `list`); not listed separately. */
  aliases?: Record<string, string>;
  fallback?: Command;
  notes?: string;
}): Command {
  const spec: CommandSpec = { name: opts.name, synopsis: opts.synopsis, flags: {} };
  const help = () => {
    const rows = Object.entries(opts.subs).map(([name, c]) => {
      const line = typeof c.spec.synopsis === "string" ? c.spec.synopsis : c.spec.synopsis[0];
      return [`${name}${line ? ` ${line}` : ""}`, c.summary ?? ""];
    });
    const width = Math.min(52, Math.max(...rows.map(([l]) => l.length)));
    const list = rows
      .map(([l, r]) => (l.length > width ? `  ${l}\n  ${"".padEnd(width)}  ${r}` : `  ${l.padEnd(width)}  ${r}`))
      .join("\n");
    const tail = `Run 'acp-threads ${opts.name} <subcommand> --help' for a subcommand's options.`;
    return `${synopsisOf(spec)}\n\nsubcommands:\n${list}\n\n${opts.notes ? `${opts.notes.trimEnd()}\n` : ""}${tail}\n`;
  };
  const main = async (io: CliIO): Promise<number> => {
    const [first, ...rest] = io.argv;
    const name = first !== undefined ? (opts.aliases?.[first] ?? first) : undefined;
    const sub = name !== undefined && Object.hasOwn(opts.subs, name) ? opts.subs[name] : undefined;
    if (sub) return sub({ ...io, argv: rest });
    if (opts.fallback) return opts.fallback(io);
    if (first === undefined || first === "help") {
      io.stdout.write(help());
      return first === undefined ? EXIT.usage : EXIT.ok;
    }
    try {
      // only flags can come before the subcommand; this names a bad one or finds the help
      if (parseCommand({ ...spec, args: { max: 1 } }, [first]).help) {
        io.stdout.write(help());
        return EXIT.ok;
      }
      throw new AcpThreadsError("usage", `unknown subcommand '${first}'`);
    } catch (err) {
      return reportError(io, spec, err);
    }
  };
  return Object.assign(main, { spec, help });
}
