/** `acp-threads kill ID [--grace MS]`: SIGTERM the run's process group, SIGKILL after the grace period. */
import { AcpThreadsError } from "../../core/errors";
import { EXIT, type CliIO } from "../io";
import { openRegistry, reportError, statusLabel } from "../exec/context";
import { numberFlag, parseOrHelp } from "../exec/flags";

const USAGE = "usage: acp-threads kill ID [--grace MS]\n";

export async function main(io: CliIO): Promise<number> {
  let registry;
  try {
    const parsed = parseOrHelp(io, { grace: "string" }, USAGE);
    if (!parsed) return EXIT.ok;
    const { flags, positionals } = parsed;
    if (positionals.length !== 1) throw new AcpThreadsError("usage", `expected one run id\n${USAGE}`);
    registry = openRegistry(io);
    const before = registry.resolve(positionals[0]!);
    if (before.status !== "running") {
      io.stderr.write(`acp-threads kill: run ${before.id} is not running (${statusLabel(before)})\n`);
      return EXIT.error;
    }
    const after = await registry.kill(before.id, numberFlag(flags, "grace"));
    io.stdout.write(`${after.id} ${statusLabel(after)}\n`);
    return EXIT.ok;
  } catch (err) {
    return reportError(io, "kill", err);
  } finally {
    registry?.dispose();
  }
}
