/** `acp-threads status`: the recall database, counts per source, last sync. */
import { EXIT, type CliIO } from "../io";
import { openFor, writeJson } from "../recall/common";
import { bool, parseFlags, text, UsageError } from "../recall/flags";

export async function main(io: CliIO): Promise<number> {
  let p;
  try {
    p = parseFlags(io.argv, { format: "string", help: "bool" });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`acp-threads status: ${err.message}\nusage: acp-threads status [--format json]\n`);
    return EXIT.usage;
  }
  if (bool(p, "help")) {
    io.stdout.write("usage: acp-threads status [--format json]\n");
    return EXIT.ok;
  }
  const recall = openFor(io);
  try {
    const s = recall.status();
    if (text(p, "format") === "json") {
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
    recall.close();
  }
}
