/**
 * Starting a thread of this window in the thread host (`acpThreads.host.runSessions: host`, #35), as `acp-threads
 * run --detach` does: the host is started when none runs (with `acpThreads.host.idleMinutes`), the run is sent
 * with the workspace folder as its folder, the agent as a command line with its env (held in the host's memory,
 * never written), the window's environment as the agent's base, and the editor's permission policy whose "ask"
 * verdicts come back to this window's cards (`askClients`). Resolves with the new thread's id once it is open.
 *
 * A thread that belongs in the host (the setting says `host`, or the host ran it: thread-tag.ts) is continued
 * there too once the host's run ended (it closes at its last prompt): a prompt typed in its panel starts the next
 * run on the same thread (`run --detach --thread ID`), its agent the recorded one, and the panel follows it.
 */
import { basename } from "node:path";
import { joinCommandLine } from "../../core/acp/agent-registry";
import type { DetachedRun } from "../../core/host/protocol";
import { ranInHost } from "../../core/host/thread-tag";
import type { AgentSpec, PermissionPolicy } from "../../core/model/agent";
import type { AgentRef } from "../../core/model/records";
import type { ThreadStore } from "../../core/store/thread-store";
import type { Config } from "../config";
import type { ThreadPanels } from "../thread-panels";
import { assertTrusted } from "../trust";
import type { HostedThreads } from "./hosted-threads";

export interface HostRunRequest {
  /** A new thread's agent; none: the thread continued (`thread`) runs its recorded agent. */
  agent?: AgentSpec;
  /** The stored thread to continue. */
  thread?: string;
  /** The agent's extra env (a continued thread's: its configured agent's, when this window has it). */
  env?: Record<string, string>;
  cwd: string;
  prompt: string;
  permission: PermissionPolicy;
  /** The watchdog's stall time (0: off). */
  stallMs: number;
}

interface HostRunHub {
  hosted: HostedThreads;
  config: Config;
  panels: ThreadPanels;
}

/**
 * Whether the window's settings let the host run its threads: not while `acpThreads.sandbox.mode` puts every
 * session in the OS sandbox (the host does not sandbox its agents yet; the window does).
 */
export const hostMayRun = (config: Config): boolean => config.sandbox === "off";

const policy = (config: Config) => ({
  permission: config.permissionMode,
  stallMs: config.watchdogStallSeconds * 1000,
});

/** Starts the thread in the host with the window's settings and opens its panel (following the host). */
export async function openInHost(hub: HostRunHub, r: { agent: AgentSpec; cwd: string; prompt: string }): Promise<void> {
  assertTrusted(); // as for a session of the window: nothing is started in an untrusted workspace
  const threadId = await startInHost(hub.hosted, { ...r, ...policy(hub.config) });
  hub.panels.open(threadId);
}

/**
 * A prompt typed in the panel of a thread no session runs: when the thread belongs in the host, its next run
 * starts there and the panel follows it (true); false: the window resumes it as before.
 */
export async function continueInHost(
  hub: HostRunHub & { threads: ThreadStore; agents(): readonly AgentSpec[] },
  threadId: string,
  prompt: string,
): Promise<boolean> {
  if (!hostMayRun(hub.config)) return false;
  const read = await hub.threads.readAsync(threadId);
  const m = read?.metadata;
  if (m?.mode !== "acp" || (hub.config.hostRunSessions !== "host" && !ranInHost(m))) return false;
  assertTrusted();
  const env = hub.agents().find((a) => sameAgent(a, m.agent))?.env;
  await startInHost(hub.hosted, {
    thread: threadId,
    cwd: m.cwd,
    prompt,
    ...(env ? { env } : {}),
    ...policy(hub.config),
  });
  hub.panels.refresh(threadId); // drawn again, following the host's run
  return true;
}

/** The configured agent a thread recorded: by id, or by its command line (the host records it resolved). */
function sameAgent(a: AgentSpec, ref: AgentRef): boolean {
  if (a.id === ref.id) return true;
  const args = ref.args ?? [];
  return (
    a.args.length === args.length &&
    a.args.every((w, i) => w === args[i]) &&
    (a.command === ref.command || basename(a.command) === basename(ref.command))
  );
}

export async function startInHost(hosted: HostedThreads, r: HostRunRequest): Promise<string> {
  const hold = hosted.link.hold(); // a connection to a host with no session yet is not let go meanwhile
  try {
    const conn = await hosted.link.connection(true);
    if (!conn) throw new Error("The thread host did not start; see the ACP Threads output.");
    const run: DetachedRun = {
      cwd: r.cwd,
      prompts: [r.prompt],
      ...(r.agent
        ? {
            agent: joinCommandLine([r.agent.command, ...r.agent.args]),
            agentLabel: { id: r.agent.id, name: r.agent.displayName },
          }
        : {}),
      ...(r.thread ? { thread: r.thread } : {}),
      permission: r.permission,
      askClients: true,
      env: { ...(r.agent?.env ?? r.env) },
      baseEnv: { ...process.env } as Record<string, string>,
      stallMs: r.stallMs,
      retry: "off",
    };
    const reply = await conn.request({ t: "run", run });
    if (reply.t !== "started") throw new Error("The thread host did not start the thread.");
    await hosted.link.check(); // its sessions list the new thread before a panel opens on it
    return reply.threadId;
  } finally {
    hold.dispose();
  }
}
