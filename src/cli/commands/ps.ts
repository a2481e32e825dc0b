/** `acp-threads ps [--all] [--format text|json]`: exec runs of every process, newest first. */
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";
import { formatBytes, formatDuration, openRegistry, statusLabel, table } from "../exec/context";

const SPEC = {
  name: "ps",
  synopsis: "[--format text|json]",
  flags: { format: FORMAT },
} as const;

export const main = command(SPEC, ({ io, flags }) => {
  const registry = openRegistry(io);
  try {
    const runs = registry.list();
    if (flags.format === "json") {
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
  } finally {
    registry.dispose();
  }
});
