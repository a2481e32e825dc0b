// The CLI's Logger: the engine logs through core/log.ts's interface, and the CLI backs it with stderr (the
// extension with an OutputChannel).
import type { Logger } from "../core/log";

/** Logs to stderr, filtered by level (CLI `--verbose` lowers it to debug). */
export function stderrLogger(level: "debug" | "info" | "warn" | "error" = "warn"): Logger {
  const order = { debug: 0, info: 1, warn: 2, error: 3 } as const;
  const emit =
    (lvl: keyof typeof order) =>
    (message: string, ...args: unknown[]) => {
      if (order[lvl] < order[level]) return;
      const extra = args.length
        ? " " + args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : JSON.stringify(a))).join(" ")
        : "";
      process.stderr.write(`[acp-threads ${lvl}] ${message}${extra}\n`);
    };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
