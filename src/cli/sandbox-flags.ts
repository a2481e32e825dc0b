/**
 * `--sandbox`, `--no-sandbox`, `--sandbox-hosts`, `--sandbox-deny-read` (#34), shared by `run` and `exec`: what
 * was asked, the default for unattended runs (best of N, worktrees: sandboxed where the machine can), and the
 * user's settings for the policy; a run's sandbox prepared and told on stderr, and the writes it refused noted.
 * The sandbox itself is core/sandbox.
 */
import type { ToolCallState } from "../core/model/events";
import { sandboxBlockedWrites } from "../core/sandbox/blocked";
import { egressLabel, sandboxBlockedNote } from "../core/sandbox/labels";
import { localEngine } from "../core/engine/local";
import type { SandboxPlan } from "../core/sandbox/plan";
import type { SandboxSettings } from "../core/model/sandbox";
import { sandboxWanted, sessionSandbox } from "../core/sandbox/session";
import { AcpThreadsError } from "../core/errors";
import type { CliIO } from "./io";

export const SANDBOX_FLAGS = {
  sandbox: {
    type: "boolean",
    negatable: true,
    help: "run the agent and everything it starts in an OS sandbox (bubblewrap / Seatbelt): writes only in the session's folders, the temp folder and the agent's own state, secrets (~/.ssh, ~/.aws, ...) unreadable; default: on for best of N and worktrees where available",
  },
  "sandbox-hosts": {
    type: "list",
    arg: "HOST",
    help: "limit the sandboxed agent's network to these hosts (HOST, *.DOMAIN or an IP, each with an optional :PORT; comma-separated or repeated), through a filtering proxy: HTTP(S) clients that honour HTTPS_PROXY reach them, nothing else gets out",
  },
  "sandbox-deny-read": { type: "list", arg: "PATH", help: "a further folder or file the sandboxed agent cannot read" },
} as const;

interface SandboxFlagValues {
  sandbox?: boolean;
  "sandbox-hosts"?: string[];
  "sandbox-deny-read"?: string[];
}

/**
 * The sandbox settings when the run is sandboxed, undefined when it is not (a note says why, if not asked); the
 * allowed hosts are checked by the engine over the data home `home` (`sandbox.hosts`).
 */
export async function sandboxFromFlags(
  io: CliIO,
  name: string,
  flags: SandboxFlagValues,
  unattended: boolean,
  home: string,
): Promise<SandboxSettings | undefined> {
  const hosts = (flags["sandbox-hosts"] ?? [])
    .flatMap((h) => h.split(","))
    .map((h) => h.trim())
    .filter(Boolean);
  // a bad entry is the usage error, before anything is probed
  await localEngine({ home, env: io.env }).call({ op: "sandbox.hosts", hosts });
  const denyRead = flags["sandbox-deny-read"] ?? [];
  if (flags.sandbox === false && (hosts.length || denyRead.length))
    throw new AcpThreadsError("usage", "--sandbox-hosts and --sandbox-deny-read go with the sandbox, not --no-sandbox");
  const wanted = await sandboxWanted(
    flags.sandbox ?? (hosts.length || denyRead.length ? true : undefined),
    unattended,
    {
      env: io.env,
    },
  );
  if (wanted.why) io.stderr.write(`acp-threads ${name}: ${wanted.why}\n`);
  return wanted.on ? { allowedHosts: hosts, denyRead } : undefined;
}

/**
 * A `run`'s sandbox (none when not asked), prepared before its thread opens: a machine that cannot sandbox fails
 * here. `more`: the session's further folders (writable, as its cwd).
 */
export async function runSandbox(
  run: {
    io: Pick<CliIO, "env" | "stderr">;
    sandbox?: SandboxSettings;
    env: Record<string, string>;
    store: { home: string };
  },
  target: { cwd: string; agent: { id: string } },
  more: readonly string[] = [],
): Promise<SandboxPlan | undefined> {
  if (!run.sandbox) return undefined;
  const plan = await sessionSandbox({
    roots: [target.cwd, ...more],
    agentId: target.agent.id,
    env: { ...run.io.env, ...run.env },
    dataHome: run.store.home,
    settings: run.sandbox,
  });
  run.io.stderr.write(`acp-threads run: ${sandboxLine(plan, target.cwd)}\n`);
  return plan;
}

/** The stderr line of a sandboxed run: the tool, where it writes, its network. */
export function sandboxLine(plan: SandboxPlan, cwd: string): string {
  const tool = plan.tool.kind === "bwrap" ? "bubblewrap" : "Seatbelt";
  return `sandboxed (${tool}): writes only in ${cwd}, the temp folder and the agent's own state; ${egressLabel(plan.policy.allowedHosts)}`;
}

/**
 * Notes, once each, the writes the sandbox refused (from a finished tool call's output) and the hosts its egress
 * proxy refused (as they happen); see sandbox/blocked.ts.
 */
export function sandboxNotes(
  io: Pick<CliIO, "stderr">,
  name: string,
  plan: SandboxPlan,
): (call: ToolCallState) => void {
  const noted = new Set<string>();
  const note = (what: string) => {
    if (noted.has(what)) return;
    noted.add(what);
    io.stderr.write(`acp-threads ${name}: ${sandboxBlockedNote(what)}\n`);
  };
  plan.proxy?.onBlocked((target) => note(`connect ${target}`));
  return (call) => {
    if (call.status !== "completed" && call.status !== "failed") return;
    const text = [
      call.terminalOutput ?? "",
      ...call.content.map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")),
      call.rawOutput === undefined ? "" : JSON.stringify(call.rawOutput),
    ].join("\n");
    for (const path of sandboxBlockedWrites(text, plan.writable)) note(`write ${path}`);
  };
}
