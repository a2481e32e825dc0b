/** `acp-threads ps [--all] [--format text|json]`: exec runs of every process, newest first. */
import { AcpThreadsError } from "../../core/errors";
import { EXIT, type CliIO } from "../io";
import { formatBytes, formatDuration, openRegistry, reportError, statusLabel, table } from "../exec/context";
import { formatFlag, parseOrHelp } from "../exec/flags";

const USAGE = "usage: acp-threads ps [--format text|json]\n";

export async function main(io: CliIO): Promise<number> {
  let registry;
  try {
    const parsed = parseOrHelp(io, { format: "string" }, USAGE);
    if (!parsed) return EXIT.ok;
    const { flags, positionals } = parsed;
    if (positionals.length > 0) throw new AcpThreadsError("usage", `ps takes no arguments\n${USAGE}`);
    registry = openRegistry(io);
    const runs = registry.list();
    if (formatFlag(flags) === "json") {
      io.stdout.write(JSON.stringify(runs, null, 2) + "\n");
      return EXIT.ok;
    }
    if (runs.length === 0) {
      io.stdout.write("no exec runs\n");
      return EXIT.ok;
    }
    const now = Date.now();
    const rows = runs.map((r) => {
      const end = r.endedAt ? Date.parse(r.endedAt) : now;
      return [
        r.id,
        statusLabel(r),
        String(r.pid ?? "-"),
        formatDuration(end - Date.parse(r.startedAt)),
        formatBytes(r.bytes),
        r.commandLine,
      ];
    });
    io.stdout.write(table([["ID", "STATUS", "PID", "TIME", "OUTPUT", "COMMAND"], ...rows]));
    return EXIT.ok;
  } catch (err) {
    return reportError(io, "ps", err);
  } finally {
    registry?.dispose();
  }
}
