/**
 * A run's session through the engine's one `openThread` (run-loop.ts): the agent's runtime made from the run's
 * options and ports, `prepare` before the agent starts (a review file, the sandbox), a held thread followed until it
 * is free, a worktree made for a session that never opened removed again.
 */
import { createAgentRuntime } from "../acp/agent-runtime";
import { errorMessage } from "../errors";
import type { EditLedger } from "../ledger/edit-ledger";
import { agentRefOf } from "../model/agent";
import { runtimesDirOf } from "../runtime/runtimes-dir";
import type { SandboxPlan } from "../sandbox/plan";
import type { SuperviseOptions } from "../watchdog/attach";
import { openThread, type OpenedThread } from "./open-thread";
import type { RunLoopOptions, RunTarget } from "./run-options";

/** The session's folders beyond its cwd (`roots`); a worktree session reaches its worktree only. */
export const extraRoots = (o: Pick<RunLoopOptions, "roots">, t: RunTarget): string[] =>
  t.worktree ? [] : (o.roots ?? []).filter((r) => r !== t.cwd);

export function openRun(
  o: RunLoopOptions,
  t: RunTarget,
  stop: AbortSignal,
  ledger: EditLedger,
  prepare: () => Promise<SandboxPlan | undefined>,
  watchdog: SuperviseOptions | undefined,
): Promise<OpenedThread | undefined> {
  let sandbox: SandboxPlan | undefined;
  const roots = extraRoots(o, t);
  const createRuntime = () => {
    const rt = createAgentRuntime(
      {
        agent: t.agent,
        cwd: t.cwd,
        permissionPolicy: o.permission,
        asker: o.asker,
        elicitor: o.elicitor,
        permissionStoreDir: o.store.home,
        ...(o.files ? { files: o.files(t.cwd) } : {}),
        ...(o.terminalHost ? { terminalHost: o.terminalHost(t.cwd, t.agent.displayName) } : {}),
        ...(roots.length ? { workspaceRoots: [t.cwd, ...roots], additionalDirectories: roots } : {}),
        env: o.env,
        ...(o.mcpServers?.length ? { mcpServers: o.mcpServers } : {}),
        logger: o.logger,
        sandbox,
      },
      {
        authMethodId: o.authMethodId,
        node: { runtimesDir: runtimesDirOf(o.store.home), ...(o.nodePath ? { nodePath: o.nodePath } : {}) },
        ...(o.baseEnv ? { baseEnv: o.baseEnv } : {}),
      },
    );
    o.onRuntime?.(rt);
    return rt;
  };
  const session = {
    store: o.store,
    createRuntime,
    agent: agentRefOf(t.agent),
    cwd: t.cwd,
    logger: o.logger,
    ledger,
    ...(o.recordTraffic === false ? { recordTraffic: false } : {}),
  };
  const note = o.note;
  return openThread({
    session: t.threadId
      ? session
      : {
          ...session,
          ...(o.startedFrom ? { startedFrom: o.startedFrom } : {}),
          ...(o.origin ? { origin: o.origin } : {}),
          ...(o.title ? { title: o.title } : {}),
          // a plain run answers even when its thread cannot be written (one note); a named session or a handoff
          // is only worth something recorded
          ...(o.bestEffortRecording
            ? { onRecordError: (err: unknown) => note?.({ type: "thread_not_recorded", error: errorMessage(err) }) }
            : {}),
        },
    // without `whenFree` the open refuses a thread another process writes (locked)
    ...(t.threadId ? { resume: t.threadId } : {}),
    ...(t.threadId && o.whenFree ? { whenFree: (id: string) => o.whenFree!(id, stop) } : {}),
    ...(t.worktree ? { worktree: { ref: t.worktree, made: true } } : {}),
    ...(o.tags?.length ? { tags: o.tags } : {}),
    prepare: async () => void (sandbox = await prepare()),
    ...(watchdog ? { watchdog } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
}
