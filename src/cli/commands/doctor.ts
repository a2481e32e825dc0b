/** `acp-threads doctor [--format json]`: which agent presets are installed, where, and which version. */
import { doctor } from "../../core/acp/agent-doctor";
import { errorMessage } from "../../core/errors";
import { oneOf, parseFlags } from "../flags";
import { EXIT, type CliIO } from "../io";

export async function main(io: CliIO): Promise<number> {
  let format: "text" | "json";
  try {
    const { values, positionals } = parseFlags(io.argv, {
      format: { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      io.stdout.write("usage: acp-threads doctor [--format text|json]\n");
      return EXIT.ok;
    }
    if (positionals.length) throw new Error(`unexpected argument '${positionals[0]}'`);
    format = oneOf("format", values.format, ["text", "json"] as const, "text");
  } catch (err) {
    io.stderr.write(`acp-threads doctor: ${errorMessage(err)}\n`);
    return EXIT.usage;
  }
  const entries = await doctor({ cwd: io.cwd, env: io.env });
  if (format === "json") {
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
}
