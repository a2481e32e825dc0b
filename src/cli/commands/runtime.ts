/**
 * `acp-threads runtime list|install [MAJOR]|remove VERSION`: the managed Node runtimes in the data home
 * (`<home>/runtimes/<version>`), for agents whose package.json `engines` ask for a Node the default one is not.
 */
import { installManagedNode, listManagedNodes, removeManagedNode, runtimesDirOf } from "../../core/runtime/managed";
import { AcpThreadsError } from "../../core/errors";
import { resolveHome } from "../../core/store/paths";
import { command, subcommands } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";

const list = command(
  { name: "runtime list", synopsis: "[--format text|json]", flags: { format: FORMAT } },
  ({ io, flags }) => {
    const dir = runtimesDirOf(resolveHome(io.env));
    const nodes = listManagedNodes(dir);
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
    const dir = runtimesDirOf(resolveHome(io.env));
    const node = await installManagedNode(dir, {
      spec: args[0],
      env: io.env,
      onProgress: (m) => io.stderr.write(`${m}\n`),
    });
    if (flags.format === "json") io.stdout.write(JSON.stringify(node) + "\n");
    else io.stdout.write(`${node.version}  ${node.path}\n`);
    return EXIT.ok;
  },
  "install a Node from npm into the data home",
);

const remove = command(
  { name: "runtime remove", synopsis: "VERSION", args: { min: 1, max: 1, name: "VERSION" }, flags: {} },
  ({ io, args }) => {
    const dir = runtimesDirOf(resolveHome(io.env));
    if (!removeManagedNode(dir, args[0]!)) {
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
