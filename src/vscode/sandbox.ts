/**
 * The OS sandbox of a session or exec run the editor starts (#34): `acpThreads.sandbox.mode` (or the composer's and
 * Best of N's choice) asks for it, and `acpThreads.sandbox.unattended` makes it the default for worktree and
 * Best of N sessions where the machine can. Asked for on a machine that cannot: the engine's
 * `sandbox_unavailable` error (what to install) — the session does not start. The unattended default on such a
 * machine runs unsandboxed and says so once. The sandbox itself is core/sandbox.
 */
import type { RuntimeEvent } from "../core/model/events";
import { describeSandbox, egressLabel, sandboxBlockedNote } from "../core/sandbox/labels";
import type { SandboxPlan } from "../core/sandbox/plan";
// the exec runs the window starts (exec-terminal.ts); the thread host starts its own with it too (core/host/host-exec.ts)
export { startSandboxed } from "../core/sandbox/plan";
import type { SandboxReport, SandboxSettings } from "../core/model/sandbox";
import { sandboxWanted, sessionSandbox } from "../core/sandbox/session";
import type { Config } from "./config";

export interface EditorSandboxInput {
  /** The session's roots: its cwd (or worktree) first. */
  roots: readonly string[];
  agentId: string;
  /** The agent's environment as it will be started (HOME, `$CODEX_HOME`, PATH for the probe). */
  env: NodeJS.ProcessEnv;
  dataHome: string;
  /** The composer's or Best of N's choice; undefined: the setting. */
  asked?: boolean;
  /** A worktree or Best of N session (the unattended default applies). */
  unattended: boolean;
}

/** Whether this session is sandboxed when the user did not choose: the setting, then the unattended default. */
export function sandboxAsked(config: Pick<Config, "sandbox">, asked: boolean | undefined): boolean | undefined {
  return asked ?? (config.sandbox === "workspace-write" ? true : undefined);
}

let toldUnsandboxed = false;

/**
 * The session's sandbox plan, or undefined when it runs unsandboxed; rejects (nothing started) when a sandbox was
 * asked for and this machine cannot give one. `tell` hears, once per window, that the unattended default could
 * not sandbox.
 */
export async function editorSandbox(
  config: EditorSandboxConfig,
  input: EditorSandboxInput,
  tell: (message: string) => void,
): Promise<SandboxPlan | undefined> {
  const settings = await editorSandboxSettings(config, input, tell);
  if (!settings) return undefined;
  return sessionSandbox({
    roots: input.roots,
    agentId: input.agentId,
    env: input.env,
    dataHome: input.dataHome,
    settings,
  });
}

type EditorSandboxConfig = Pick<Config, "sandbox" | "sandboxDenyRead" | "sandboxAllowedHosts" | "sandboxUnattended">;

/**
 * Whether the session is sandboxed and with which of the user's settings (undefined: unsandboxed): what
 * `editorSandbox` prepares here, and what a thread the thread host runs gets there (the host prepares the same
 * sandbox from them, #35).
 */
export async function editorSandboxSettings(
  config: EditorSandboxConfig,
  input: Pick<EditorSandboxInput, "env" | "asked" | "unattended">,
  tell: (message: string) => void,
): Promise<SandboxSettings | undefined> {
  const wanted = await sandboxWanted(sandboxAsked(config, input.asked), input.unattended && config.sandboxUnattended, {
    env: input.env,
  });
  if (!wanted.on) {
    if (wanted.why && !toldUnsandboxed) {
      toldUnsandboxed = true;
      tell(`Worktree and Best of N sessions run ${wanted.why} (acpThreads.sandbox.unattended).`);
    }
    return undefined;
  }
  return { denyRead: config.sandboxDenyRead, allowedHosts: config.sandboxAllowedHosts };
}

/**
 * The sandbox of a run the window's own thread host starts (window-front.ts), from the settings the window chose
 * when it made the run (`editorSandboxSettings`); rejects when this machine cannot sandbox.
 */
export function runSandboxPlan(
  settings: SandboxSettings,
  input: Pick<EditorSandboxInput, "roots" | "agentId" | "env" | "dataHome">,
): Promise<SandboxPlan> {
  return sessionSandbox({ ...input, settings });
}

/** Each host the session's egress proxy refused, once, as a warning notice on the panel. */
export function sandboxBlockedNotices(plan: SandboxPlan, push: (notice: RuntimeEvent) => void): void {
  const noted = new Set<string>();
  plan.proxy?.onBlocked((target) => {
    if (noted.has(target)) return;
    noted.add(target);
    push({
      type: "notice",
      severity: "warning",
      title: sandboxBlockedNote(`connect ${target}`),
      description: "Not in acpThreads.sandbox.allowedHosts.",
    });
  });
}

/** Doctor's sandbox row (#34): whether and how this machine sandboxes, or why not and what to install. */
export function sandboxDoctorRow(
  found: SandboxReport,
  setting: "off" | "workspace-write",
  allowedHosts: readonly string[] = [],
): { label: string; description: string; detail: string } {
  const mode = setting === "workspace-write" ? "on for every session" : "on for worktree and Best of N sessions";
  return {
    label: `${found.available ? "$(pass)" : "$(error)"} Sandbox`,
    description: found.available
      ? `available · acpThreads.sandbox.mode: ${setting} · ${egressLabel(allowedHosts)}`
      : "not available here",
    detail: found.available
      ? `${describeSandbox(found, allowedHosts)} (${mode} when the settings say so)`
      : found.problem,
  };
}
