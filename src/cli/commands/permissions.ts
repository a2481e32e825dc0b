/**
 * `acp-threads permissions add|check|list|revoke ID...|clear [--format json]`: the permission rules of this data
 * home (one `permissions.json` shared with every VS Code window), readable and editable, and the decision the
 * gate would make now for a request (`check`: the same code path as the engine, permission-decision.ts).
 */
import { resolve } from "node:path";
import { formatRule, isPathKind, ruleText } from "../../core/acp/rule-text";
import { localEngine } from "../../core/engine/local";
import { AcpThreadsError } from "../../core/errors";
import { DEFAULT_PERMISSION_POLICY, PERMISSION_POLICIES } from "../../core/model/agent";
import { EVERYWHERE, type RememberedRule, type RuleEffect } from "../../core/model/permission-rule";
import { resolveHome } from "../../core/store/paths";
import { command, subcommands } from "../command";
import { table } from "../exec/context";
import { FORMAT } from "../flags";
import { EXIT, type CliIO } from "../io";

const engineOf = (io: CliIO) => localEngine({ home: resolveHome(io.env) });
const readable = (r: RememberedRule) => formatRule({ effect: r.effect, kind: r.kind, pattern: r.key });

function print(io: CliIO, json: boolean, rules: RememberedRule[], empty: string): void {
  if (json)
    return void io.stdout.write(
      JSON.stringify(
        rules.map((r) => ({ ...r, rule: readable(r) })),
        null,
        2,
      ) + "\n",
    );
  if (!rules.length) return void io.stdout.write(`${empty}\n`);
  const rows = rules.map((r) => [
    r.id,
    r.agentId === "*" ? "any" : r.agentId,
    r.kind,
    r.scope === EVERYWHERE ? "everywhere" : r.scope,
    r.createdAt.slice(0, 19).replace("T", " "),
    readable(r),
  ]);
  io.stdout.write(table([["ID", "AGENT", "KIND", "SCOPE", "SINCE", "RULE"], ...rows]));
}

const AGENT = { type: "string", arg: "ID", help: "the agent the rule is for (default: every agent)" } as const;

const add = command(
  {
    name: "permissions add",
    synopsis: "[--deny|--ask] [--agent ID] [--scope DIR|*] KIND PATTERN [--format text|json]",
    flags: {
      deny: { type: "boolean", help: "a rule that refuses (beats every ask and allow)" },
      ask: { type: "boolean", help: "a rule that always asks (beats every allow and the policy)" },
      agent: AGENT,
      scope: { type: "string", arg: "DIR|*", help: "the workspace folder it holds in, or * (default: everywhere)" },
      format: FORMAT,
    },
    args: { min: 2, max: 2, name: "KIND PATTERN" },
  },
  async ({ io, flags, args }) => {
    if (flags.deny && flags.ask) throw new AcpThreadsError("usage", "a rule is --deny or --ask, not both");
    const effect: RuleEffect = flags.deny ? "deny" : flags.ask ? "ask" : "allow";
    const [kind, given] = args;
    // a relative path is this folder's (a bare glob such as `**/.env` or `*.pem` matches at any depth)
    const pattern =
      isPathKind(kind) && !/^(?:[/~*]|[A-Za-z]:[\\/])/.test(given) && !/[*?]/.test(given)
        ? resolve(io.cwd, given)
        : given;
    const scope = !flags.scope || flags.scope === EVERYWHERE ? EVERYWHERE : resolve(io.cwd, flags.scope);
    const rule = await engineOf(io).call({
      op: "permissions.add",
      ...ruleText(effect, kind, pattern),
      agentId: flags.agent ?? "*",
      scope,
    });
    print(io, flags.format === "json", [rule], "");
    return EXIT.ok;
  },
  'add a rule: allow (default), --ask or --deny KIND PATTERN, e.g. execute "npm run *" or edit "**/.env"',
);

const check = command(
  {
    name: "permissions check",
    synopsis: "KIND TARGET [--agent ID] [--permission POLICY] [--cwd DIR] [--format text|json]",
    flags: {
      agent: { type: "string", arg: "ID", help: "the agent asking (default: any)" },
      permission: {
        type: "enum",
        values: PERMISSION_POLICIES,
        default: DEFAULT_PERMISSION_POLICY,
        help: "the policy mode the session runs with",
      },
      cwd: { type: "string", arg: "DIR", help: "the session's workspace (default: this folder)" },
      format: FORMAT,
    },
    args: { min: 2, max: 2, name: "KIND TARGET" },
  },
  async ({ io, flags, args }) => {
    const [kind, target] = args;
    const cwd = flags.cwd ? resolve(io.cwd, flags.cwd) : io.cwd;
    const out = await engineOf(io).call({
      op: "permissions.check",
      kind,
      target,
      agentId: flags.agent ?? "*",
      policy: flags.permission as (typeof PERMISSION_POLICIES)[number],
      cwd,
    });
    if (flags.format === "json") io.stdout.write(JSON.stringify(out, null, 2) + "\n");
    else {
      const why = out.decision === "ask" ? `asked: ${out.reason} (refused where nobody can be asked)` : out.reason;
      io.stdout.write(`${out.decision}: ${why}${out.rule ? `\n  rule: ${out.rule}` : ""}\n`);
    }
    return EXIT.ok;
  },
  "the decision the permission gate would make now for KIND TARGET, and the rule that made it",
);

const list = command(
  { name: "permissions list", synopsis: "[--format text|json]", flags: { format: FORMAT }, args: { max: 0 } },
  async ({ io, flags }) => {
    const { rules, file } = await engineOf(io).call({ op: "permissions.list" });
    print(io, flags.format === "json", rules, "no remembered permissions");
    if (flags.format !== "json" && file) io.stderr.write(`(rules file: ${file})\n`);
    return EXIT.ok;
  },
  "the permission rules (remembered 'Always allow' answers and rules added by hand)",
);

const revoke = command(
  {
    name: "permissions revoke",
    synopsis: "ID... [--format text|json]",
    flags: { format: FORMAT },
    args: { min: 1, name: "ID" },
  },
  async ({ io, flags, args }) => {
    // all or none: an id the rules file does not list (now, under its lock) removes nothing
    const removed = await engineOf(io)
      .call({ op: "permissions.revoke", ids: args })
      .catch((err: unknown) => {
        if (!(err instanceof AcpThreadsError) || err.code !== "not_found") throw err;
        throw new AcpThreadsError("usage", `${err.message} (see 'acp-threads permissions list')`);
      });
    print(io, flags.format === "json", removed, "nothing revoked");
    return EXIT.ok;
  },
  "forget the rules with these ids",
);

const clear = command(
  { name: "permissions clear", synopsis: "[--format text|json]", flags: { format: FORMAT }, args: { max: 0 } },
  async ({ io, flags }) => {
    const removed = await engineOf(io).call({ op: "permissions.clear" });
    print(io, flags.format === "json", removed, "no remembered permissions");
    return EXIT.ok;
  },
  "forget every rule",
);

export const main = subcommands({
  name: "permissions",
  synopsis: "<subcommand> [--format text|json]",
  aliases: { ls: "list", rm: "revoke" },
  subs: { add, check, list, revoke, clear },
  notes:
    'A rule allows, asks for or denies one kind of thing: allow execute "npm test" (that exact line; a trailing\n' +
    '" *" covers further plain words: "npm run *"), deny edit "**/.env", ask read "~/.ssh/**" (path globs), for\n' +
    "one agent or all, in one workspace or everywhere. Deny beats ask beats allow beats the policy mode; nothing\n" +
    "outside the session's folders is allowed but by a rule naming that path. A workspace may add deny and ask\n" +
    "rules in .acp-threads/permissions.json.\n",
});
