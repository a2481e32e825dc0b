/**
 * `acp-threads threads list|show|export|import|rename|delete|restore [--format json]`: browse and manage the
 * saved threads of this data home (see `acp-threads threads --help`).
 */
import { reportError } from "../exec/context";
import type { FlagSpec } from "../flags";
import { EXIT, type CliIO } from "../io";
import { openStore, parseSub, type Subcommand } from "../threads/common";
import { list } from "../threads/list";
import { remove, rename, restore } from "../threads/manage";
import { show } from "../threads/show";
import { exportThread, importSnapshot } from "../threads/transfer";

const USAGE = `usage: acp-threads threads <subcommand> [options] [--format text|json]

  list [--cwd DIR] [--agent ID] [--all] [--limit N]   threads of this workspace by day, newest first
  show ID                                              print a thread's conversation
  export ID [--out FILE] [--dir DIR] [--jsonl]         save a session snapshot (default .acp-threads/)
  import [FILE | --latest] [--dir DIR] [--root DIR]    restore a snapshot as a new thread (no FILE: list them;
                                                       a .jsonl FILE from export --jsonl is added as is)
  rename ID TITLE                                      set the thread's title
  delete ID                                            move a thread to the trash
  restore ID                                           bring a thread back from the trash

ID is a thread id or a unique prefix of one (at least 4 characters).
`;

const SUBCOMMANDS: Record<string, { run: Subcommand; flags: Record<string, FlagSpec> }> = {
  list: {
    run: list,
    flags: { cwd: { type: "string" }, agent: { type: "string" }, all: { type: "boolean" }, limit: { type: "string" } },
  },
  ls: {
    run: list,
    flags: { cwd: { type: "string" }, agent: { type: "string" }, all: { type: "boolean" }, limit: { type: "string" } },
  },
  show: { run: show, flags: {} },
  export: {
    run: exportThread,
    flags: { out: { type: "string", short: "o" }, dir: { type: "string" }, jsonl: { type: "boolean" } },
  },
  import: {
    run: importSnapshot,
    flags: { latest: { type: "boolean" }, dir: { type: "string" }, root: { type: "string" } },
  },
  rename: { run: rename, flags: {} },
  delete: { run: remove, flags: {} },
  rm: { run: remove, flags: {} },
  restore: { run: restore, flags: {} },
};

export async function main(io: CliIO): Promise<number> {
  const [name, ...rest] = io.argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(USAGE);
    return name ? EXIT.ok : EXIT.usage;
  }
  const sub = SUBCOMMANDS[name];
  if (!sub) {
    io.stderr.write(`acp-threads threads: unknown subcommand '${name}'\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const store = openStore(io);
  try {
    return await sub.run({ ...parseSub(io, rest, sub.flags), store });
  } catch (err) {
    return reportError(io, `threads ${name}`, err);
  } finally {
    store.closeAll();
  }
}
