/**
 * The sandbox of one session or run, from what the CLI and the editor know: its roots, its agent, the user's
 * environment (home, `$CODEX_HOME`, ...) and settings. `sandboxWanted` decides for the runs a user leaves alone
 * (best of N, worktrees): sandboxed by default where this machine can, never a failure where it cannot.
 */
import { homedir, tmpdir } from "node:os";
import type { SandboxSettings } from "../model/sandbox";
import { buildSandboxPolicy } from "./policy";
import { prepareSandbox, type SandboxPlan } from "./plan";
import { sandboxAvailability, type ProbeOptions } from "./tool";

export interface SessionSandboxInput {
  /** The session's roots: its cwd (or worktree) first, then its `additionalDirectories`. */
  roots: readonly string[];
  agentId: string;
  env: NodeJS.ProcessEnv;
  /** Our data home (its threads are other threads' data). */
  dataHome?: string;
  settings?: SandboxSettings;
  probe?: ProbeOptions;
}

export function sessionSandbox(input: SessionSandboxInput): Promise<SandboxPlan> {
  const policy = buildSandboxPolicy({
    roots: input.roots,
    agentId: input.agentId,
    home: input.env.HOME || homedir(),
    env: input.env,
    tmpDir: input.env.TMPDIR || tmpdir(),
    dataHome: input.dataHome,
    settings: input.settings,
  });
  return prepareSandbox(policy, { env: input.env, ...input.probe });
}

/**
 * `--sandbox` given: on (or the error); `--no-sandbox`: off; not given: on for unattended runs (best of N,
 * worktrees) when the machine can sandbox, else off. `why` says what was decided when it was not asked.
 */
export async function sandboxWanted(
  asked: boolean | undefined,
  unattended: boolean,
  probe: ProbeOptions = {},
): Promise<{ on: boolean; why?: string }> {
  if (asked !== undefined) return { on: asked };
  if (!unattended) return { on: false };
  const found = await sandboxAvailability(probe);
  return found.available
    ? { on: true, why: "sandboxed (the default for unattended runs; --no-sandbox: off)" }
    : { on: false, why: `not sandboxed: ${found.problem}` };
}
