/** `acp-threads session-archive --transcript-path P [--cwd DIR] [--session-id ID]`: index one transcript file. */
import { resolve } from "node:path";
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";
import { openFor, writeJson } from "../recall/common";

export const main = command(
  {
    name: "session-archive",
    synopsis: "--transcript-path FILE [--cwd DIR] [--session-id ID] [--format json]",
    flags: {
      "transcript-path": {
        type: "string",
        required: true,
        arg: "FILE",
        help: "a Codex rollout or Claude Code transcript",
      },
      cwd: { type: "string", arg: "DIR", help: "the session's working directory (default: read from the file)" },
      "session-id": { type: "string", arg: "ID", help: "the session id (default: read from the file)" },
      format: FORMAT,
    },
  },
  ({ io, flags }) => {
    const path = resolve(io.cwd, flags["transcript-path"]);
    const recall = openFor(io);
    try {
      const sum = recall.archiveFile(path, {
        cwd: flags.cwd ? resolve(io.cwd, flags.cwd) : undefined,
        sessionId: flags["session-id"],
      });
      if (flags.format === "json") writeJson(io, sum);
      else io.stdout.write(`${sum.source}: ${path}: ${sum.messages} new messages (${sum.bad_lines} bad lines)\n`);
      return EXIT.ok;
    } finally {
      recall.close();
    }
  },
);
