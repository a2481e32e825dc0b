/**
 * `--sandbox`, `--no-sandbox`, `--sandbox-hosts`, `--sandbox-deny-read` (#34), shared by `run` and `exec`: what
 * was asked, the default for unattended runs (best of N, worktrees: sandboxed where the machine can), and the
 * user's settings for the policy. The sandbox itself is core/sandbox.
 */
import type { SandboxSettings } from "../core/sandbox/policy";
import { sandboxWanted } from "../core/sandbox/session";
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
    help: "limit the sandbox's network to these hosts (not supported yet: refused rather than ignored)",
  },
  "sandbox-deny-read": { type: "list", arg: "PATH", help: "a further folder or file the sandboxed agent cannot read" },
} as const;

interface SandboxFlagValues {
  sandbox?: boolean;
  "sandbox-hosts"?: string[];
  "sandbox-deny-read"?: string[];
}

/** The sandbox settings when the run is sandboxed, undefined when it is not (a note says why, if not asked). */
export async function sandboxFromFlags(
  io: CliIO,
  name: string,
  flags: SandboxFlagValues,
  unattended: boolean,
): Promise<SandboxSettings | undefined> {
  const hosts = flags["sandbox-hosts"] ?? [];
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
