/**
 * The one switch between a window session and the thread host for every "start or resume a session" entry point
 * (#35): Resume, Fork, Rewind's edited prompt, Hand off, `acpThreads.spawn` with arguments, Send review. A stored
 * thread belongs in the host when `acpThreads.host.runSessions` says `host` or the host ran it (thread-tag.ts); a
 * new thread when the setting says so. A thread the host holds right now is never resumed here: its panel follows
 * the host, and a prompt for it goes into the host's queue.
 */
import { refusalCode } from "../../core/host/protocol-refusal";
import type { AgentSpec } from "../../core/model/agent";
import type { PromptPart } from "../../core/model/context";
import type { ContextSources } from "../../core/prompt/blocks";
import type { ThreadStore } from "../../core/store/thread-store";
import { configuredAgents } from "../agents";
import type { RegistryService } from "../registry/registry-service";
import { belongsInHost, continueInHost, hostTakes, openInHost, type HostRunHub, type HostStart } from "./host-run";
import { hostedPrompt } from "./host-run-spec";
import { runsInOwnHost } from "./window-engine";

export interface HostEntryHub extends HostRunHub {
  threads: ThreadStore;
  registry: RegistryService;
  composer: { sources(): ContextSources };
}

/** What the prompt went as: into a running turn's queue, or as the next turn. */
export type HostEntry = "sent" | "queued";

/**
 * Whether a new thread starts in a thread host (the setting, or the window's own host: window-engine.ts) with this
 * prompt (its context inside its folders).
 */
export const startsInHost = (
  hub: Pick<HostRunHub, "config" | "hosted">,
  cwd: string,
  parts: readonly PromptPart[],
): boolean => (hub.config.hostRunSessions === "host" || runsInOwnHost(hub)) && hostTakes(cwd, parts);

/** Whether a stored thread's next prompt goes to the thread host: it holds the thread, or the thread belongs there. */
export const goesToHost = async (hub: HostEntryHub, threadId: string): Promise<boolean> =>
  hub.hosted.holds(threadId) || belongsInHost(hub, (await hub.threads.readAsync(threadId))?.metadata);

/** A new thread in the host (the window's settings, its panel opened): its id. */
export const startThreadInHost = (hub: HostEntryHub, s: HostStart): Promise<string> =>
  openInHost(hub, s, hub.composer.sources());

/**
 * A prompt for a stored thread no session of this window runs, where the host takes it: queued into the host's run
 * when the host holds the thread, else the thread's next run in the host when it belongs there. Undefined: the
 * window resumes it as before. Rejects when the host refuses it (context outside the run's folders): nothing sent.
 * The window's row of the host's sessions may be behind the host either way, and the host's refusal says so: a run
 * listed that has ended (`not_held`: the next run takes the prompt), or one not listed yet that another window or
 * terminal started (`held`: that run takes it).
 */
export async function promptInHost(
  hub: HostEntryHub,
  threadId: string,
  parts: PromptPart[],
): Promise<HostEntry | undefined> {
  const view = hub.hosted.get(threadId);
  if (view) {
    const { text, parts: wire } = await hostedPrompt(parts, hub.composer.sources());
    await view.prompt(text, wire);
    return view.busy ? "queued" : "sent";
  }
  const held = hub.hosted.linkOf(threadId).session(threadId);
  if (held) {
    const sent = await intoHeldRun(hub, threadId, parts).then(
      () => true,
      (err: unknown) => {
        if (refusalCode(err) !== "not_held") throw err;
        return false;
      },
    );
    if (sent) return held.state === "working" ? "queued" : "sent";
  }
  try {
    return (await continueInHost(continuing(hub), threadId, parts)) ? "sent" : undefined;
  } catch (err) {
    if (refusalCode(err) !== "held") throw err;
    await intoHeldRun(hub, threadId, parts);
    return "queued";
  }
}

/** The prompt into the host's run of the thread (rejects with the host's refusal: `not_held`, its folders). */
async function intoHeldRun(hub: HostEntryHub, threadId: string, parts: PromptPart[]): Promise<void> {
  const { text, parts: wire } = await hostedPrompt(parts, hub.composer.sources());
  const c = await hub.hosted.linkOf(threadId).connection();
  if (!c || c.closed) throw new Error("The thread host is not running anymore.");
  await c.request({ t: "prompt", threadId, text, ...(wire ? { parts: wire } : {}) });
}

/**
 * Resume with an optional first prompt, for a thread that belongs in the host or that it holds: its panel opens
 * (following the host's run, or with a prompt box whose next prompt starts the host's run), the prompt goes to the
 * host. False: the window resumes it.
 */
export async function resumeInHost(hub: HostEntryHub, threadId: string, task?: string): Promise<boolean> {
  if (!(await goesToHost(hub, threadId))) return false;
  if (task?.trim()) {
    if (!(await promptInHost(hub, threadId, [{ type: "text", text: task }]))) return false;
  } else hub.panels.open(threadId);
  return true;
}

/** The hub as `continueInHost` wants it: the configured agents and the prompt box's context sources. */
export function continuing(hub: HostEntryHub): Parameters<typeof continueInHost>[0] {
  return {
    context: hub.context,
    hosted: hub.hosted,
    config: hub.config,
    panels: hub.panels,
    broker: hub.broker,
    engine: hub.engine,
    threads: hub.threads,
    agents: async (): Promise<AgentSpec[]> => (await configuredAgents(hub.config, hub.registry)).map((a) => a.spec),
    sources: () => hub.composer.sources(),
  };
}
