/**
 * `acp-threads agents list [--available] | add ID | update [ID] | remove ID | logout ID`: agents from the ACP Agent
 * Registry, installed into the data home (`<home>/agents/<id>/<version>`) and then started by id like a preset
 * (`acp-threads run --agent ID`); `logout` logs any agent (preset, installed or a command line) out over ACP. Every subcommand takes `--registry URL` (else ACP_THREADS_REGISTRY_URL, else the
 * home's setting, else the official registry); when the network fails the cached or bundled copy is used and a
 * notice says so on stderr.
 */
import { resolve } from "node:path";
import { probeAgent } from "../../core/acp/agent-probe";
import { authStatusText, type AuthStatus } from "../../core/acp/auth-status";
import { AcpThreadsError } from "../../core/errors";
import { installedAgentSpec } from "../../core/registry/installed-spec";
import { localEngine, type LocalEngine } from "../../core/engine/local";
import type { EngineProgress } from "../../core/engine/requests";
import { runtimesDirOf } from "../../core/runtime/runtimes-dir";
import { authLabel } from "../../core/registry/auth-label";
import { deprecationOf } from "../../core/registry/deprecated";
import type { InstalledAgent, RegistryAgent } from "../../core/registry/types";
import { resolveHome } from "../../core/store/paths";
import { command, subcommands, type Command } from "../command";
import { FORMAT, type FlagTable, type FlagValues } from "../flags";
import { EXIT, type CliIO } from "../io";

const REGISTRY = {
  registry: {
    type: "string",
    arg: "URL",
    help: "the registry.json to read (default: ACP_THREADS_REGISTRY_URL or the official registry)",
  },
} as const;

interface Ctx {
  io: CliIO;
  home: string;
  /** The engine, reading the registry of --registry (else ACP_THREADS_REGISTRY_URL, else the home's setting). */
  engine: LocalEngine;
}

function context(io: CliIO, flag: string | undefined): Ctx {
  const home = resolveHome(io.env);
  return { io, home, engine: localEngine({ home, env: io.env, ...(flag ? { registryUrl: () => flag } : {}) }) };
}

/**
 * What the registry requests report, on stderr: a notice when the registry is not the network's copy, the install's
 * start, then one line per phase (the download's byte count is not repeated).
 */
function progressTo(io: CliIO): { signal: AbortSignal | undefined; onProgress: (p: EngineProgress) => void } {
  let last = "";
  const onProgress = (p: EngineProgress) => {
    if (p.t === "warning") io.stderr.write(`acp-threads agents: notice: ${p.message}\n`);
    if (p.t === "step") io.stderr.write(`${p.message}\n`);
    if (p.t !== "install") return;
    if (p.phase === last && (p.phase === "download" || p.phase === "npm" || p.phase === "uv")) return;
    last = p.phase;
    io.stderr.write(`  ${p.message}\n`);
  };
  return { signal: io.signal, onProgress };
}

/** "renamed: use @agentclientprotocol/codex-acp" for an entry whose adapter is superseded. */
function superseded(a: RegistryAgent): string {
  const d = deprecationOf(a);
  return d ? `${d.reason}: use ${d.successor}` : "";
}

/** `agents list --probe`: how long each agent gets to answer `initialize` (its login state then gets 1 s more). */
const LOGIN_PROBE_MS = 10_000;

/**
 * The login state each installed agent reports (`_auth/status_update`) when started once (`agents list --probe`,
 * one at a time); null when it reports none or does not start. The CLI keeps no running agents, so without
 * --probe the state is not known and not shown.
 */
async function loginStates(ctx: Ctx, installed: InstalledAgent[]): Promise<Map<string, AuthStatus | null>> {
  const out = new Map<string, AuthStatus | null>();
  for (const a of installed) {
    ctx.io.stderr.write(`Asking ${a.name} for its login state…\n`);
    const probe = await probeAgent(installedAgentSpec(a), {
      cwd: ctx.io.cwd,
      env: ctx.io.env,
      node: { runtimesDir: runtimesDirOf(ctx.home) },
      timeoutMs: LOGIN_PROBE_MS,
    });
    if (!probe.ok) ctx.io.stderr.write(`acp-threads agents: ${a.id} did not start: ${probe.error}\n`);
    out.set(a.id, probe.authStatus ?? null);
  }
  return out;
}

const kinds = (a: RegistryAgent) => Object.keys(a.distribution).join(",");

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

function sub<const T extends FlagTable>(
  name: string,
  spec: { synopsis: string; flags: T; args: { min?: number; max?: number; name?: string }; notes?: string },
  summary: string,
  run: (ctx: Ctx, flags: FlagValues<T & typeof REGISTRY>, args: string[]) => Promise<number>,
): Command {
  return command(
    {
      name: `agents ${name}`,
      synopsis: spec.synopsis,
      flags: { ...spec.flags, ...REGISTRY },
      args: spec.args,
      notes: spec.notes,
    },
    ({ io, flags, args }) => run(context(io, flags.registry as string | undefined), flags as never, args),
    summary,
  );
}

const list = sub(
  "list",
  {
    synopsis: "[--available] [--probe] [--registry URL] [--format text|json]",
    flags: {
      available: { type: "boolean", help: "list the registry's agents instead of the installed ones" },
      probe: {
        type: "boolean",
        help: "start each installed agent once (up to 10 s) and show the login state it reports (LOGIN, authStatus)",
      },
      format: FORMAT,
    },
    args: { max: 0 },
  },
  "installed agents (with updates), or the registry's with --available",
  async (ctx, flags) => {
    const { io } = ctx;
    if (!flags.available && (await ctx.engine.call({ op: "agents.installed" })).length === 0) {
      if (flags.format === "json") io.stdout.write(`${JSON.stringify({ installed: [] }, null, 2)}\n`);
      else io.stdout.write("No agents installed. 'acp-threads agents list --available' shows the registry.\n");
      return EXIT.ok;
    }
    const listing = await ctx.engine.call({ op: "registry.list" }, progressTo(io));
    const { installed } = listing;
    if (flags.available) {
      const have = new Map(installed.map((a) => [a.id, a]));
      if (flags.format === "json") {
        const { source, url, error, rejected } = listing;
        const agents = listing.index.agents.map((a) => ({
          ...a,
          installedVersion: have.get(a.id)?.version ?? null,
          auth: have.get(a.id)?.auth ?? null,
          supersededBy: deprecationOf(a)?.successor ?? null,
        }));
        io.stdout.write(`${JSON.stringify({ source, url, error, agents, rejected }, null, 2)}\n`);
      } else {
        const rows = listing.index.agents.map((a) => [
          a.id,
          a.version,
          a.license ?? "",
          kinds(a),
          authLabel(have.get(a.id)?.auth, have.has(a.id)).replace(/^auth: /, ""),
          [have.has(a.id) ? `installed ${have.get(a.id)!.version}` : "", superseded(a)].filter(Boolean).join(", "),
          a.name,
        ]);
        io.stdout.write(table([["ID", "VERSION", "LICENSE", "DISTRIBUTION", "AUTH", "STATUS", "NAME"], ...rows]));
        for (const r of listing.rejected)
          io.stderr.write(`acp-threads agents: skipped invalid entry '${r.id}': ${r.reason}\n`);
      }
      return EXIT.ok;
    }
    const logins = flags.probe ? await loginStates(ctx, installed) : undefined;
    const rows = installed.map((a) => ({
      ...a,
      auth: a.auth ?? null,
      updateAvailable: listing.updates[a.id] ?? null,
      ...(logins ? { authStatus: logins.get(a.id) ?? null } : {}),
    }));
    if (flags.format === "json") {
      io.stdout.write(
        `${JSON.stringify({ source: listing.source, error: listing.error, installed: rows }, null, 2)}\n`,
      );
      return EXIT.ok;
    }
    const lines = rows.map((a) => [
      a.id,
      a.version,
      a.kind,
      authLabel(a.auth ?? undefined, true).replace(/^auth: /, ""),
      a.updateAvailable ? `update available: ${a.updateAvailable}` : "",
      ...(logins ? [a.authStatus ? authStatusText(a.authStatus) : "unknown"] : []),
      a.name,
    ]);
    const head = ["ID", "VERSION", "KIND", "AUTH", "STATUS", ...(logins ? ["LOGIN"] : []), "NAME"];
    io.stdout.write(table([head, ...lines]));
    return EXIT.ok;
  },
);

const add = sub(
  "add",
  { synopsis: "ID [--registry URL]", flags: {}, args: { min: 1, max: 1, name: "ID" } },
  "install an agent from the registry",
  async (ctx, _flags, [id]) => {
    const { agent: done, already } = await ctx.engine.call(
      { op: "registry.install", agentId: id! },
      progressTo(ctx.io),
    );
    if (already) {
      ctx.io.stdout.write(`${done.id} ${done.version} is already installed (${done.command})\n`);
      return EXIT.ok;
    }
    ctx.io.stdout.write(`installed ${done.id} ${done.version} (${done.kind}): acp-threads run --agent ${done.id}\n`);
    return EXIT.ok;
  },
);

const update = sub(
  "update",
  { synopsis: "[ID] [--registry URL]", flags: {}, args: { max: 1, name: "ID" } },
  "install newer versions of the installed agents (or of ID)",
  async (ctx, _flags, [id]) => {
    const { updates, failed } = await ctx.engine.call(
      { op: "registry.update", ...(id ? { agentId: id } : {}) },
      progressTo(ctx.io),
    );
    if (updates.length === 0 && !failed) {
      ctx.io.stdout.write("No agents installed.\n");
      return EXIT.ok;
    }
    for (const u of updates)
      ctx.io.stdout.write(u.to ? `updated ${u.id} ${u.version} → ${u.to}\n` : `${u.id} ${u.version} is up to date\n`);
    if (failed) throw failed.code ? new AcpThreadsError(failed.code, failed.message) : new Error(failed.message);
    return EXIT.ok;
  },
);

const remove = sub(
  "remove",
  { synopsis: "ID", flags: {}, args: { min: 1, max: 1, name: "ID" } },
  "uninstall an agent",
  async (ctx, _flags, [id]) => {
    if (!(await ctx.engine.call({ op: "registry.remove", agentId: id! })).removed)
      throw new AcpThreadsError("not_found", `agent '${id}' is not installed`);
    ctx.io.stdout.write(`removed ${id}\n`);
    return EXIT.ok;
  },
);

const logout = sub(
  "logout",
  { synopsis: "ID", flags: {}, args: { min: 1, max: 1, name: "ID" } },
  "log an agent out (ACP `logout`, when the agent offers it)",
  async (ctx, _flags, [id]) => {
    const { io } = ctx;
    const { spec } = await ctx.engine.call({ op: "agents.resolve", agent: id!, cwd: resolve(io.cwd) });
    const res = await ctx.engine.call({
      op: "agents.logout",
      spec,
      cwd: io.cwd,
      managedNodes: true,
    });
    const state = res.authStatus ? ` (${authStatusText(res.authStatus)})` : "";
    io.stdout.write(`logged out of ${spec.displayName}${state}\n`);
    return EXIT.ok;
  },
);

export const main = subcommands({
  name: "agents",
  synopsis: "<subcommand> [options]",
  aliases: { ls: "list", install: "add", rm: "remove", uninstall: "remove" },
  subs: { list, add, update, remove, logout },
  notes: `Agents come from the ACP Agent Registry (https://agentclientprotocol.com) and are installed into the data
home; start one with 'acp-threads run --agent ID'. The registry URL: --registry, else ACP_THREADS_REGISTRY_URL,
else the official one. Offline, the last copy read (or the one bundled with acp-threads) is used.`,
});
