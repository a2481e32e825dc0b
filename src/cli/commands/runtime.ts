/**
 * `acp-threads runtime list|install [MAJOR]|remove VERSION`: the managed Node runtimes in the data home
 * (`<home>/runtimes/<version>`), for agents whose package.json `engines` ask for a Node the default one is not.
 */
import { localEngine } from "../../core/engine/local";
import { AcpThreadsError } from "../../core/errors";
import { resolveHome } from "../../core/store/paths";
import { command, subcommands } from "../command";
import { FORMAT } from "../flags";
import { EXIT, type CliIO } from "../io";

/** The engine over the data home `io.env` names; npm runs with `io.env`. */
const engineOf = (io: CliIO) => localEngine({ home: resolveHome(io.env), env: io.env });

const list = command(
  { name: "runtime list", synopsis: "[--format text|json]", flags: { format: FORMAT } },
  async ({ io, flags }) => {
    const { dir, nodes } = await engineOf(io).call({ op: "runtime.list" });
    if (flags.format === "json") io.stdout.write(JSON.stringify(nodes) + "\n");
    else if (!nodes.length) io.stdout.write(`no managed Node runtimes in ${dir}\n`);
    else for (const n of nodes) io.stdout.write(`${n.version.padEnd(10)}  ${n.path}\n`);
    return EXIT.ok;
  },
  "the managed Node runtimes, newest first",
);

const install = command(
  {
    name: "runtime install",
    synopsis: "[MAJOR|VERSION] [--format text|json]",
    args: { max: 1, name: "MAJOR" },
    flags: { format: FORMAT },
    notes: "Installs npm's node-<os>-<arch> package of the newest release of MAJOR (default: the newest Node).\n",
  },
  async ({ io, flags, args }) => {
    const node = await engineOf(io).call(
      { op: "runtime.install", ...(args[0] !== undefined ? { spec: args[0] } : {}) },
      { onProgress: (p) => p.t === "step" && io.stderr.write(`${p.message}\n`) },
    );
    if (flags.format === "json") io.stdout.write(JSON.stringify(node) + "\n");
    else io.stdout.write(`${node.version}  ${node.path}\n`);
    return EXIT.ok;
  },
  "install a Node from npm into the data home",
);

const remove = command(
  { name: "runtime remove", synopsis: "VERSION", args: { min: 1, max: 1, name: "VERSION" }, flags: {} },
  async ({ io, args }) => {
    const { dir, removed } = await engineOf(io).call({ op: "runtime.remove", version: args[0]! });
    if (!removed) {
      throw new AcpThreadsError("not_found", `no managed Node ${args[0]} in ${dir} (see 'acp-threads runtime list')`);
    }
    io.stdout.write(`removed Node ${args[0]}\n`);
    return EXIT.ok;
  },
  "delete a managed Node",
);

export const main = subcommands({
  name: "runtime",
  synopsis: "<subcommand> [options]",
  aliases: { ls: "list", rm: "remove" },
  subs: { list, install, remove },
});
