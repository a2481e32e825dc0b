/** `acp-threads status`: the recall database, counts per source, last sync. */
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";
import { recallEngine, writeJson } from "../recall/common";

export const main = command(
  {
    name: "status",
    synopsis: "[--format text|json]",
    flags: { format: FORMAT },
  },
  async ({ io, flags }) => {
    const engine = recallEngine(io, true);
    try {
      const s = await engine.call({ op: "recall.status" });
      if (flags.format === "json") {
        writeJson(io, s);
        return EXIT.ok;
      }
      io.stdout.write(`database: ${s.database} (${(s.size_bytes / 1048576).toFixed(1)} MB)\n`);
      io.stdout.write(`total: ${s.totals.sessions} sessions, ${s.totals.messages} messages, ${s.totals.files} files\n`);
      for (const r of s.sources) {
        io.stdout.write(
          `  ${r.source}: ${r.sessions} sessions, ${r.messages} messages, ${r.files} files, last sync ${r.last_sync ?? "never"}` +
            `${r.bad_lines ? `, ${r.bad_lines} bad lines` : ""}${r.unknown_records ? `, ${r.unknown_records} unknown records skipped` : ""}\n`,
        );
      }
      return EXIT.ok;
    } finally {
      engine.close();
    }
  },
);
