/**
 * `acp-threads bundle THREAD [--out FILE]`: saves a thread's bug bundle (its protocol traffic, records and
 * versions; redacted, paths replaced, 0600) to attach to an issue. `acp-threads replay FILE` plays it back.
 */
import { resolve } from "node:path";
import { localEngine, type LocalEngine } from "../../core/engine/local";
import { resolveHome } from "../../core/store/paths";
import { command } from "../command";
import { EXIT, type CliIO } from "../io";
import { VERSION } from "../../core/version";

export const CLI_VERSION = VERSION;

/** The engine the bug-bundle commands ask (`bundle` saves one, `replay` plays one back): over the data home. */
export const bundleEngine = (io: CliIO): LocalEngine => localEngine({ home: resolveHome(io.env) });

export const main = command(
  {
    name: "bundle",
    synopsis: "THREAD [--out FILE]",
    args: { min: 1, max: 1, name: "THREAD" },
    flags: {
      out: { type: "string", short: "o", arg: "FILE", help: "where to write it (default: ./acp-threads-bug-….json)" },
    },
    notes: `THREAD is a thread id or a unique prefix of one. The bundle holds the thread's JSON-RPC traffic with the
agent, its records and the versions of everything involved; key-like strings are redacted, env values left out,
the workspace and home paths replaced by \${WORKSPACE} and \${HOME}. Check it before you share it.`,
  },
  async ({ io, flags, args }) => {
    const { path, notes } = await bundleEngine(io).call({
      op: "bundle.save",
      threadId: args[0]!,
      ...(flags.out ? { outFile: resolve(io.cwd, flags.out) } : { dir: resolve(io.cwd) }),
    });
    io.stdout.write(`${path}\n`);
    for (const note of notes) io.stderr.write(`acp-threads bundle: note: ${note}\n`);
    return EXIT.ok;
  },
);
