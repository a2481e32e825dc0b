/**
 * `acp-threads doctor [--no-probe] [--format json]`: which agent presets are installed, where, which version,
 * which Node runs them, and what each advertises in `initialize` (one probe per agent, in parallel; a probe that
 * fails is reported on its agent and never fails the command), and whether `--sandbox` works here (the text
 * output's last row; the JSON stays the agents' array).
 */
import { probeLines } from "../../core/acp/probe-lines";
import { localEngine } from "../../core/engine/local";
import { resolveHome } from "../../core/store/paths";
import { command } from "../command";
import { FORMAT, timerFlag } from "../flags";
import { EXIT } from "../io";
import { describeSandbox } from "../../core/sandbox/labels";

export const main = command(
  {
    name: "doctor",
    synopsis: "[--no-probe] [--probe-timeout S] [--format text|json]",
    flags: {
      format: FORMAT,
      probe: {
        type: "boolean",
        negatable: true,
        help: "start each agent and report what its initialize advertises (default; --no-probe skips it)",
      },
      "probe-timeout": {
        type: "number",
        above: 0,
        ...timerFlag(1000),
        arg: "S",
        help: "give each agent S seconds to answer initialize (default 30)",
      },
    },
  },
  async ({ io, flags }) => {
    const engine = localEngine({ home: resolveHome(io.env), env: io.env });
    const entries = await engine.call({
      op: "agents.doctor",
      cwd: io.cwd,
      probe: flags.probe !== false,
      ...(flags["probe-timeout"] !== undefined ? { probeTimeoutMs: flags["probe-timeout"] * 1000 } : {}),
      managedNodes: true,
    });
    if (flags.format === "json") {
      io.stdout.write(JSON.stringify(entries) + "\n");
      return EXIT.ok;
    }
    const width = Math.max("sandbox".length, ...entries.map((e) => e.id.length));
    const pad = "".padEnd(width);
    for (const e of entries) {
      const state = e.available
        ? `ok       ${e.version ?? "(version unknown)"}  ${e.resolvedPath}`
        : `missing  ${e.problem}`;
      io.stdout.write(`${e.id.padEnd(width)}  ${state}\n`);
      if (!e.available) continue;
      if (e.problem) io.stdout.write(`${pad}  problem  ${e.problem}\n`);
      if (e.node) io.stdout.write(`${pad}  node     ${e.node.version} (${e.node.source}: ${e.node.path})\n`);
      for (const line of e.probe ? probeLines(e.probe) : []) io.stdout.write(`${pad}  ${line}\n`);
    }
    const sandbox = await engine.call({ op: "sandbox.availability" });
    const state = sandbox.available ? "ok     " : "missing";
    io.stdout.write(
      `${"sandbox".padEnd(width)}  ${state}  ${describeSandbox(sandbox)}${sandbox.available ? " (--sandbox-hosts limits it)" : ""}\n`,
    );
    return EXIT.ok;
  },
);
