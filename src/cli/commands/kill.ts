/** `acp-threads kill ID [--grace MS]`: SIGTERM the run's process group, SIGKILL after the grace period. */
import { command } from "../command";
import { timerFlag } from "../flags";
import { EXIT } from "../io";
import { openRegistry, statusLabel } from "../exec/context";

const SPEC = {
  name: "kill",
  synopsis: "ID [--grace MS]",
  args: { min: 1, max: 1, name: "ID" },
  flags: {
    grace: { type: "number", min: 0, ...timerFlag(1), arg: "MS", help: "milliseconds between SIGTERM and SIGKILL" },
  },
} as const;

export const main = command(SPEC, async ({ io, flags, args }) => {
  const registry = openRegistry(io);
  try {
    const before = registry.resolve(args[0]!);
    if (before.status !== "running") {
      io.stderr.write(`acp-threads kill: run ${before.id} is not running (${statusLabel(before)})\n`);
      return EXIT.error;
    }
    const after = await registry.kill(before.id, flags.grace);
    io.stdout.write(`${after.id} ${statusLabel(after)}\n`);
    return EXIT.ok;
  } finally {
    registry.dispose();
  }
});
