/** `acp-threads doctor [--format json]`: which agent presets are installed, where, and which version. */
import { doctor } from "../../core/acp/agent-doctor";
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";

export const main = command(
  {
    name: "doctor",
    synopsis: "[--format text|json]",
    flags: { format: FORMAT },
  },
  async ({ io, flags }) => {
    const entries = await doctor({ cwd: io.cwd, env: io.env });
    if (flags.format === "json") {
      io.stdout.write(JSON.stringify(entries) + "\n");
      return EXIT.ok;
    }
    const width = Math.max(...entries.map((e) => e.id.length));
    for (const e of entries) {
      const state = e.available
        ? `ok       ${e.version ?? "(version unknown)"}  ${e.resolvedPath}`
        : `missing  ${e.problem}`;
      io.stdout.write(`${e.id.padEnd(width)}  ${state}\n`);
    }
    return EXIT.ok;
  },
);
