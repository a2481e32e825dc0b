/**
 * `acp-threads permissions list|revoke ID...|clear [--format json]`: the remembered "always allow" rules of this
 * data home (one `permissions.json` shared with every VS Code window), readable and editable.
 */
import { EVERYWHERE, PermissionStore, type RememberedRule } from "../../core/acp/permission-store";
import { AcpThreadsError } from "../../core/errors";
import { resolveHome } from "../../core/store/paths";
import { command, subcommands } from "../command";
import { table } from "../exec/context";
import { FORMAT } from "../flags";
import { EXIT, type CliIO } from "../io";

const storeOf = (io: CliIO) => new PermissionStore(resolveHome(io.env));

function print(io: CliIO, json: boolean, rules: RememberedRule[], empty: string): void {
  if (json) return void io.stdout.write(JSON.stringify(rules, null, 2) + "\n");
  if (!rules.length) return void io.stdout.write(`${empty}\n`);
  const rows = rules.map((r) => [
    r.id,
    r.agentId,
    r.kind,
    r.scope === EVERYWHERE ? "everywhere" : r.scope,
    r.createdAt.slice(0, 19).replace("T", " "),
    r.key,
  ]);
  io.stdout.write(table([["ID", "AGENT", "KIND", "SCOPE", "SINCE", "RULE"], ...rows]));
}

const list = command(
  { name: "permissions list", synopsis: "[--format text|json]", flags: { format: FORMAT }, args: { max: 0 } },
  async ({ io, flags }) => {
    const store = storeOf(io);
    print(io, flags.format === "json", await store.rules(), "no remembered permissions");
    if (flags.format !== "json" && store.rulesFile) io.stderr.write(`(rules file: ${store.rulesFile})\n`);
    return EXIT.ok;
  },
  "the remembered 'always allow' rules",
);

const revoke = command(
  {
    name: "permissions revoke",
    synopsis: "ID... [--format text|json]",
    flags: { format: FORMAT },
    args: { min: 1, name: "ID" },
  },
  async ({ io, flags, args }) => {
    const store = storeOf(io);
    const known = new Set((await store.rules()).map((r) => r.id));
    const unknown = args.filter((id) => !known.has(id));
    if (unknown.length) {
      throw new AcpThreadsError(
        "usage",
        `no remembered permission ${unknown.join(", ")} (see 'acp-threads permissions list')`,
      );
    }
    const removed = await store.revokeIds(args);
    print(io, flags.format === "json", removed, "nothing revoked");
    return EXIT.ok;
  },
  "forget the rules with these ids",
);

const clear = command(
  { name: "permissions clear", synopsis: "[--format text|json]", flags: { format: FORMAT }, args: { max: 0 } },
  async ({ io, flags }) => {
    const store = storeOf(io);
    const ids = (await store.rules()).map((r) => r.id);
    const removed = await store.revokeIds(ids);
    print(io, flags.format === "json", removed, "no remembered permissions");
    return EXIT.ok;
  },
  "forget every rule",
);

export const main = subcommands({
  name: "permissions",
  synopsis: "<subcommand> [--format text|json]",
  aliases: { ls: "list", rm: "revoke" },
  subs: { list, revoke, clear },
  notes:
    "A rule lets one agent do one kind of thing without asking: 'execute npm test' (a command's program and\n" +
    "subcommand) or 'edit /abs/path', in one workspace or everywhere. Agents ask again once a rule is gone.\n",
});
