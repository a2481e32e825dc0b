/** `acp-threads session-archive --transcript-path P [--cwd DIR] [--session-id ID]`: index one transcript file. */
import { resolve } from "node:path";
import { EXIT, type CliIO } from "../io";
import { openFor, writeJson } from "../recall/common";
import { bool, parseFlags, text, UsageError } from "../recall/flags";

const USAGE =
  "usage: acp-threads session-archive --transcript-path FILE [--cwd DIR] [--session-id ID] [--format json]\n";

export async function main(io: CliIO): Promise<number> {
  let p;
  try {
    p = parseFlags(io.argv, {
      "transcript-path": "string",
      cwd: "string",
      "session-id": "string",
      format: "string",
      help: "bool",
    });
    if (!bool(p, "help") && !text(p, "transcript-path")) throw new UsageError("--transcript-path is required");
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`acp-threads session-archive: ${err.message}\n${USAGE}`);
    return EXIT.usage;
  }
  if (bool(p, "help")) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const path = resolve(io.cwd, text(p, "transcript-path")!);
  const cwd = text(p, "cwd");
  const recall = openFor(io);
  try {
    const sum = recall.archiveFile(path, {
      cwd: cwd ? resolve(io.cwd, cwd) : undefined,
      sessionId: text(p, "session-id"),
    });
    if (text(p, "format") === "json") writeJson(io, sum);
    else io.stdout.write(`${sum.source}: ${path}: ${sum.messages} new messages (${sum.bad_lines} bad lines)\n`);
    return EXIT.ok;
  } catch (err) {
    io.stderr.write(`acp-threads session-archive: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.error;
  } finally {
    recall.close();
  }
}
