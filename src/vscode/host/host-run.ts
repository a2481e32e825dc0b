/**
 * Starting a thread of this window in the thread host (`acpThreads.host.runSessions: host`, #35), as `acp-threads
 * run --detach` does: the host is started when none runs (with `acpThreads.host.idleMinutes`), the run is sent
 * with the workspace folder as its folder, the agent as a command line with its env (held in the host's memory,
 * never written), the window's environment as the agent's base, and the editor's permission policy whose "ask"
 * verdicts come back to this window's cards (`askClients`). Resolves with the new thread's id once it is open.
 */
import { joinCommandLine } from "../../core/acp/agent-registry";
import type { DetachedRun } from "../../core/host/protocol";
import type { AgentSpec, PermissionPolicy } from "../../core/model/agent";
import type { Config } from "../config";
import type { ThreadPanels } from "../thread-panels";
import { assertTrusted } from "../trust";
import type { HostedThreads } from "./hosted-threads";

export interface HostRunRequest {
  agent: AgentSpec;
  cwd: string;
  prompt: string;
  permission: PermissionPolicy;
  /** The watchdog's stall time (0: off). */
  stallMs: number;
}

/** Starts the thread in the host with the window's settings and opens its panel (following the host). */
export async function openInHost(
  hub: { hosted: HostedThreads; config: Config; panels: ThreadPanels },
  r: { agent: AgentSpec; cwd: string; prompt: string },
): Promise<void> {
  assertTrusted(); // as for a session of the window: nothing is started in an untrusted workspace
  const threadId = await startInHost(hub.hosted, {
    ...r,
    permission: hub.config.permissionMode,
    stallMs: hub.config.watchdogStallSeconds * 1000,
  });
  hub.panels.open(threadId);
}

export async function startInHost(hosted: HostedThreads, r: HostRunRequest): Promise<string> {
  const hold = hosted.link.hold(); // a connection to a host with no session yet is not let go meanwhile
  try {
    const conn = await hosted.link.connection(true);
    if (!conn) throw new Error("The thread host did not start; see the ACP Threads output.");
    const run: DetachedRun = {
      cwd: r.cwd,
      prompts: [r.prompt],
      agent: joinCommandLine([r.agent.command, ...r.agent.args]),
      permission: r.permission,
      askClients: true,
      env: { ...r.agent.env },
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
