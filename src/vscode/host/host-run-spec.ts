/**
 * What the window asks the thread host to run (#35), as plain data and without the editor's API: the agent as a
 * command line with its env (held in the host's memory, never written), the window's environment as the agent's
 * base, the prompt as composed (its context as the same items the window's own session sends), the window's
 * other workspace folders, the recall tools and traffic recording as its own sessions have them, a new worktree,
 * and the OS sandbox the window would have given the session — decided
 * from the same settings (editorSandboxSettings), then prepared by the host as `run --sandbox` does.
 */
import { resolve } from "node:path";
import { joinCommandLine } from "../../core/acp/command-line";
import type { DetachedRun } from "../../core/host/protocol";
import { promptToWire, type WirePromptPart } from "../../core/host/wire-context";
import type { AgentSpec, PermissionPolicy } from "../../core/model/agent";
import type { PromptPart } from "../../core/model/context";
import type { WorktreeRef } from "../../core/model/records";
import { isInside } from "../../core/platform/paths";
import type { ContextSources } from "../../core/prompt/blocks";
import type { RecallMcpCommand } from "../../core/recall/mcp-offer";
import { definedEnv } from "../../core/util/guards";
import { editorSandboxSettings } from "../sandbox";
import type { Config } from "../config";

export interface HostRunRequest {
  /**
   * A new thread's agent; with `thread`: the configured agent of the thread's recorded id (an editor's, run as
   * configured: run-target.ts); none: the thread continued runs its recorded agent.
   */
  agent?: AgentSpec;
  /** The stored thread to continue. */
  thread?: string;
  /** The agent's extra env (a continued thread's: its configured agent's, when this window has it). */
  env?: Record<string, string>;
  cwd: string;
  /**
   * The prompt as composed: text, with context where its chips are. Empty: a new thread with no first prompt (an
   * `acpThreads.spawn` with no task): the host opens its agent's session and waits idle for the first prompt.
   */
  parts: PromptPart[];
  /** The window's other workspace folders (a worktree session has none). */
  roots?: string[];
  /** A new thread in a new git worktree of `cwd`'s repository (the host makes it, as `run --worktree`). */
  worktree?: boolean;
  /** A continued thread works in a worktree: the unattended sandbox default applies, as in the window. */
  inWorktree?: boolean;
  /** A new thread in this worktree, made by the window (a Best of N candidate: best-of-command.ts), in `cwd` inside it. */
  preparedWorktree?: { ref: WorktreeRef; cwd: string };
  /**
   * Started with nobody at the prompt (a Best of N candidate, #36): its origin is `automation` and the unattended
   * sandbox default applies, as hub-spawn.ts's `unattended`.
   */
  unattended?: boolean;
  /** The composer's "sandboxed" toggle when the user changed it; undefined: the settings decide. */
  sandbox?: boolean;
  permission: PermissionPolicy;
  /** A new thread's title (a handoff's); none: its first prompt. */
  title?: string;
  /** A new thread that continues this stored thread (a handoff). */
  handoffFrom?: string;
  /** "Run once": the host's run ends after this prompt and takes no other; else it stays open between prompts. */
  once?: boolean;
  /** The watchdog's stall time (0: off). */
  stallMs: number;
  /** The watchdog's retries (`acpThreads.watchdog.retry`): offered to the user, or taken by themselves; none: no watchdog. */
  retry?: "offer" | "auto";
  /** How this window starts the recall MCP server (hub-spawn.ts `recallMcpCommand`): offered when the settings say. */
  recallMcp?: RecallMcpCommand;
}

export type HostRunConfig = Pick<Config, "sandbox" | "sandboxDenyRead" | "sandboxAllowedHosts" | "sandboxUnattended"> &
  Partial<Pick<Config, "turnEndedHook" | "recallOfferToAgents" | "recordTraffic" | "nodePath">>;

/**
 * The run the host gets for `r`, from this window's environment `env`. Rejects when a sandbox is asked for and
 * this machine cannot give one (nothing is sent: the window's session would not start either). `tell` hears the
 * unattended default's note, as for the window's sessions.
 */
export async function detachedRun(
  config: HostRunConfig,
  r: HostRunRequest,
  env: NodeJS.ProcessEnv,
  tell: (message: string) => void,
): Promise<DetachedRun> {
  const agentEnv = { ...(r.agent?.env ?? r.env) };
  const sandbox = await editorSandboxSettings(
    config,
    {
      env: { ...env, ...agentEnv },
      asked: r.sandbox,
      unattended: !!r.worktree || !!r.inWorktree || !!r.preparedWorktree || !!r.unattended,
    },
    tell,
  );
  const { text, parts } = promptToWire(r.parts);
  return {
    cwd: r.cwd,
    // no prompt: the run opens the session and waits for its first one, as a kept-open run does between prompts
    prompts: r.parts.length ? [text] : [],
    ...(parts ? { parts } : {}),
    ...(r.agent
      ? {
          agent: joinCommandLine([r.agent.command, ...r.agent.args]),
          agentLabel: { id: r.agent.id, name: r.agent.displayName },
        }
      : {}),
    ...(r.thread ? { thread: r.thread } : {}),
    ...(r.title ? { title: r.title } : {}),
    ...(r.handoffFrom ? { handoffFrom: r.handoffFrom } : {}),
    ...(r.roots?.length && !r.worktree && !r.preparedWorktree ? { roots: r.roots } : {}),
    ...(r.worktree ? { worktree: true } : {}),
    ...(r.preparedWorktree ? { preparedWorktree: r.preparedWorktree } : {}),
    // the runtime options of the window's own sessions (hub-spawn.ts), from the same settings
    ...(config.recallOfferToAgents && r.recallMcp ? { recallMcp: r.recallMcp } : {}),
    ...(config.recordTraffic === false ? { recordTraffic: false } : {}),
    // the Node a Node-script agent gets when its default one does not fit, as a window session's (node-runtime.ts)
    ...(config.nodePath?.trim() ? { nodePath: config.nodePath } : {}),
    permission: r.permission,
    askClients: true,
    startedFrom: r.unattended ? "automation" : "editor",
    // the agent stays between prompts, as a window session's does; "Run once": its one turn, then it exits
    ...(r.once ? { once: true } : { keepOpen: true }),
    env: agentEnv,
    baseEnv: definedEnv(env),
    stallMs: r.stallMs,
    retry: r.retry ?? "off",
    ...(sandbox ? { sandbox } : {}),
    // the user's hook goes with the run: the host runs it when a turn ends, with or without a window (#35)
    ...(config.turnEndedHook?.trim() ? { turnEndedHook: config.turnEndedHook } : {}),
  };
}

/**
 * Whether the host can take this prompt's context: every file it names is inside the session's folders (the
 * host refuses the rest; the window's own session sends them, so such a prompt stays in the window).
 */
export function contextInside(parts: readonly PromptPart[], folders: readonly string[]): boolean {
  return parts.every(
    (p) =>
      p.type === "text" ||
      p.item.path === undefined ||
      folders.some((f) => isInside(resolve(f), resolve(p.item.path!))),
  );
}

/** A prompt for the host's open run on a thread, as the `prompt` request carries it (its mentions' text read here). */
export async function hostedPrompt(
  parts: PromptPart[],
  sources: ContextSources,
): Promise<{ text: string; parts?: WirePromptPart[] }> {
  return promptToWire(await withThreadText(parts, sources));
}

/**
 * The prompt's past-thread mentions with their text, read here (the host reads files, not this window's
 * threads' conversations): the agent gets the same blocks as from the window's own session.
 */
export async function withThreadText(parts: PromptPart[], sources: ContextSources): Promise<PromptPart[]> {
  return Promise.all(
    parts.map(async (p) => {
      if (p.type === "text" || p.item.kind !== "thread" || p.item.content !== undefined || !p.item.threadId) return p;
      const content = await sources.threadText?.(p.item.threadId);
      return content === undefined ? p : { type: "context" as const, item: { ...p.item, content } };
    }),
  );
}
